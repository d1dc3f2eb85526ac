import { expect, fixture, html, oneEvent, waitUntil } from "@open-wc/testing";
import type { PiClient } from "@pi-kit/client";
import { sendKeys } from "@web/test-runner-commands";
import "../../../src/define.ts";
import type { PiChat, PiForkedEvent, PiForkPicker } from "../../../src/index.ts";
import { connect, type FakePi, STATE, sent, type Written } from "../../support/ui-helpers.ts";

const messages = [
  { entryId: "0048bc1e", text: "first prompt" },
  { entryId: "44f54b37", text: "second prompt" },
  { entryId: "77aa0001", text: "third prompt" },
];
const root = (el: PiForkPicker): ShadowRoot => el.shadowRoot as ShadowRoot;

describe("<pi-fork-picker>", () => {
  let pi: FakePi;
  let client: PiClient;

  beforeEach(async () => {
    ({ pi, client } = await connect({
      get_messages: { messages: [] },
      get_entries: { entries: [], leafId: null },
      get_fork_messages: { messages },
      fork: (c: Written) => ({
        text: messages.find((m) => m.entryId === c.entryId)?.text ?? "",
        cancelled: false,
      }),
    }));
  });

  afterEach(async () => {
    await client.close();
  });

  it("asks, then forks from the keyboard, hands back the text and reloads on the session change", async () => {
    const el = await fixture<PiForkPicker>(
      html`<pi-fork-picker .client=${client}></pi-fork-picker>`,
    );
    await waitUntil(() => root(el).querySelectorAll('[role="option"]').length === 3);
    await expect(el).to.be.accessible();
    el.focus();
    await sendKeys({ press: "ArrowDown" });
    await el.updateComplete;
    expect(
      root(el).querySelector('[role="listbox"]')?.getAttribute("aria-activedescendant"),
    ).to.equal("fork-1");
    await sendKeys({ press: "Enter" });
    await el.updateComplete;
    expect(sent(pi, "fork")).to.have.length(0);
    expect(root(el).querySelector("[part=confirm]")?.textContent).to.contain(
      "Fork from “second prompt”?",
    );
    expect(root(el).activeElement?.getAttribute("part")).to.equal("confirm-button");
    await expect(el).to.be.accessible();
    const forked = oneEvent(el, "pi-forked") as Promise<PiForkedEvent>;
    await sendKeys({ press: "Enter" });
    const event = await forked;
    expect(event.text).to.equal("second prompt");
    expect(sent(pi, "fork")[0]).to.deep.include({ entryId: "44f54b37" });
    await el.updateComplete;
    expect(root(el).querySelector("[part=confirm]")).to.equal(null);
    // The client loads the new session and says so; the picker reloads its messages then.
    await waitUntil(() => sent(pi, "get_fork_messages").length === 2, "no reload");
  });

  it("backs out on Escape, and forks at once with no-confirm", async () => {
    const el = await fixture<PiForkPicker>(
      html`<pi-fork-picker .client=${client}></pi-fork-picker>`,
    );
    await waitUntil(() => root(el).querySelectorAll('[role="option"]').length === 3);
    (root(el).querySelector("#fork-2") as HTMLElement).click();
    await el.updateComplete;
    expect(root(el).querySelector("[part=confirm]")).to.not.equal(null);
    await sendKeys({ press: "Escape" });
    await el.updateComplete;
    expect(root(el).querySelector("[part=confirm]")).to.equal(null);
    expect(root(el).activeElement?.getAttribute("role")).to.equal("listbox");
    expect(sent(pi, "fork")).to.have.length(0);
    el.noConfirm = true;
    const forked = oneEvent(el, "pi-forked") as Promise<PiForkedEvent>;
    (root(el).querySelector("#fork-2") as HTMLElement).click();
    expect((await forked).entryId).to.equal("77aa0001");
  });

  it("clamps a long message to three whole lines", async () => {
    const long = Array.from({ length: 12 }, (_, i) => `line ${i} of a long message`).join("\n");
    const el = await fixture<PiForkPicker>(
      html`<pi-fork-picker .messages=${[{ entryId: "x", text: long }]}></pi-fork-picker>`,
    );
    const text = root(el).querySelector<HTMLElement>("#fork-0 .text") as HTMLElement;
    const style = getComputedStyle(text);
    // The clipping box has no padding, so no part of a fourth line can show.
    expect(style.paddingBottom).to.equal("0px");
    const lines = text.getBoundingClientRect().height / Number.parseFloat(style.lineHeight);
    expect(Math.round(lines * 10) / 10).to.equal(3);
    expect(text.scrollHeight).to.be.greaterThan(text.clientHeight);
  });

  it("puts the forked message into an enclosing chat's composer", async () => {
    const chat = await fixture<PiChat>(
      html`<pi-chat style="height: 400px" .client=${client}>
        <pi-fork-picker slot="header"></pi-fork-picker>
      </pi-chat>`,
    );
    const el = chat.querySelector("pi-fork-picker") as PiForkPicker;
    await waitUntil(() => root(el).querySelectorAll('[role="option"]').length === 3);
    (root(el).querySelector("#fork-0") as HTMLElement).click();
    await el.updateComplete;
    root(el).querySelector<HTMLElement>("[part=confirm-button]")?.click();
    await waitUntil(() => chat.composer?.value === "first prompt", "the composer stayed empty");
  });

  it("the message put back belongs to the fork: the original keeps its own draft, each version its own", async () => {
    await client.close();
    let file = "/sessions/rivers/original.jsonl";
    ({ pi, client } = await connect({
      get_state: () => ({ ...STATE, sessionFile: file }),
      get_messages: { messages: [] },
      get_entries: { entries: [], leafId: null },
      get_fork_messages: { messages },
      fork: (c: Written) => {
        file = "/sessions/rivers/fork.jsonl";
        return {
          text: messages.find((m) => m.entryId === c.entryId)?.text ?? "",
          cancelled: false,
        };
      },
      switch_session: (c: Written) => {
        file = c.sessionPath as string;
        return { cancelled: false };
      },
    }));
    const chat = await fixture<PiChat>(
      html`<pi-chat style="height: 400px" .client=${client}>
        <pi-fork-picker slot="header"></pi-fork-picker>
      </pi-chat>`,
    );
    const el = chat.querySelector("pi-fork-picker") as PiForkPicker;
    await waitUntil(() => root(el).querySelectorAll('[role="option"]').length === 3);
    await waitUntil(() => chat.snapshot?.state?.sessionFile === file, "the state is in");
    await chat.updateComplete;
    const input = chat.composer?.input as HTMLTextAreaElement;
    input.value = "half a thought about the original";
    input.dispatchEvent(new InputEvent("input", { bubbles: true, composed: true }));
    (root(el).querySelector("#fork-1") as HTMLElement).click();
    await el.updateComplete;
    root(el).querySelector<HTMLElement>("[part=confirm-button]")?.click();
    await waitUntil(() => chat.composer?.value === "second prompt", "the fork's message");

    await client.switchSession("/sessions/rivers/original.jsonl");
    await waitUntil(
      () => chat.composer?.value === "half a thought about the original",
      `the original's draft, not the fork's message: ${chat.composer?.value}`,
    );
    await client.switchSession("/sessions/rivers/fork.jsonl");
    await waitUntil(() => chat.composer?.value === "second prompt", "the fork's draft is back");
  });

  it("moves by typing and End/Home", async () => {
    const el = await fixture<PiForkPicker>(
      html`<pi-fork-picker .messages=${messages}></pi-fork-picker>`,
    );
    el.focus();
    await sendKeys({ press: "t" });
    expect(el.active).to.equal(2);
    await sendKeys({ press: "Home" });
    expect(el.active).to.equal(0);
    await sendKeys({ press: "End" });
    expect(el.active).to.equal(2);
  });

  it("says when there is nothing to fork from", async () => {
    const el = await fixture<PiForkPicker>(
      html`<pi-fork-picker lang="zh-CN" .messages=${[]}></pi-fork-picker>`,
    );
    expect(root(el).querySelector('[part="empty"]')?.textContent).to.equal("还没有可分叉的消息");
    await expect(el).to.be.accessible();
  });
});
