import { expect, fixture, html, waitUntil } from "@open-wc/testing";
import type { PiClient } from "@pi-kit/client";
import type { SessionStats } from "@pi-kit/protocol";
import "../../../src/define.ts";
import type { PiSessionStats } from "../../../src/index.ts";
import { connect, type FakePi, ok, sent } from "../../support/ui-helpers.ts";

const stats = (percent: number | null): SessionStats => ({
  sessionId: "s1",
  userMessages: 2,
  assistantMessages: 3,
  toolCalls: 4,
  toolResults: 4,
  totalMessages: 9,
  tokens: { input: 12_300, output: 950, cacheRead: 2000, cacheWrite: 0, total: 15_250 },
  cost: 0.0123,
  contextUsage: { tokens: percent === null ? null : 6400, contextWindow: 32000, percent },
});
const text = (el: PiSessionStats): string =>
  (el.shadowRoot as ShadowRoot).textContent?.replace(/\s+/g, " ") ?? "";

describe("<pi-session-stats>", () => {
  let pi: FakePi;
  let client: PiClient;

  beforeEach(async () => {
    let calls = 0;
    ({ pi, client } = await connect({ get_session_stats: () => stats(++calls === 1 ? 20 : 85) }));
  });

  afterEach(async () => {
    await client.close();
  });

  it("loads and shows the figures", async () => {
    const el = await fixture<PiSessionStats>(
      html`<pi-session-stats .client=${client}></pi-session-stats>`,
    );
    await waitUntil(() => el.stats !== undefined);
    await el.updateComplete;
    const shown = text(el);
    expect(shown).to.contain("2 from you · 3 from pi");
    expect(shown)
      .to.contain("12k")
      .and.contain("950")
      .and.contain("$0.012")
      .and.contain("20% of 32k");
    expect((el.shadowRoot as ShadowRoot).querySelector("meter")?.value).to.equal(20);
    await expect(el).to.be.accessible();
  });

  it("refreshes on the button and when a run settles", async () => {
    const el = await fixture<PiSessionStats>(
      html`<pi-session-stats .client=${client}></pi-session-stats>`,
    );
    await waitUntil(() => el.stats !== undefined);
    await el.updateComplete;
    (el.shadowRoot as ShadowRoot)
      .querySelector<HTMLButtonElement>('[part="refresh-button"]')
      ?.click();
    await waitUntil(() => el.stats?.contextUsage?.percent === 85);
    pi.push({ type: "agent_start" });
    pi.push({ type: "agent_end", messages: [] });
    pi.push({ type: "agent_settled" });
    await waitUntil(() => sent(pi, "get_session_stats").length === 3, "no refresh after the run");
  });

  it("refreshes after a session change (a new session, a fork…)", async () => {
    pi.handlers.set("get_messages", (c) => [ok(c, { messages: [] })]);
    pi.handlers.set("get_entries", (c) => [ok(c, { entries: [], leafId: null })]);
    const el = await fixture<PiSessionStats>(
      html`<pi-session-stats .client=${client}></pi-session-stats>`,
    );
    await waitUntil(() => el.stats !== undefined);
    await client.newSession();
    await waitUntil(
      () => sent(pi, "get_session_stats").length === 2,
      "no refresh after new_session",
    );
  });

  it("shows given stats without a client, in Chinese", async () => {
    const el = await fixture<PiSessionStats>(
      html`<pi-session-stats lang="zh-CN" .stats=${stats(null)}></pi-session-stats>`,
    );
    expect(text(el)).to.contain("下次回答后可知");
    expect((el.shadowRoot as ShadowRoot).querySelector("dl")?.getAttribute("aria-label")).to.equal(
      "会话统计",
    );
    await expect(el).to.be.accessible();
  });
});
