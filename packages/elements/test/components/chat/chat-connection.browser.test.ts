/**
 * `<pi-chat src>`'s connection states in words, against real bridges in Chromium (issue 19):
 * "Connecting…", a bridge that is down or restarting ("Reconnecting…", then connected again), and
 * each refusal named (wrong token, missing token, origin not allowed, too many sessions, ticket
 * expired), in English and Chinese, with the typed error's code and close code at its top level.
 * Runs only under the client's wtr-bridge config, whose plugin serves the bridges.
 */
import { expect, fixture, html, oneEvent } from "@open-wc/testing";
import "../../../src/define.ts";
import type { PiClientError } from "@pi-kit/client";
import { en, type PiChat, type PiErrorEvent } from "../../../src/index.ts";
import { zhCN } from "../../../src/locales.ts";

interface BridgeInfo {
  readonly wsBase: string;
  readonly token: string;
  readonly foreignWsBase: string;
  readonly ticketsWsBase: string;
  readonly mintUrl: string;
  readonly restartable: { wsBase: string; stopUrl: string; startUrl: string };
}

const bridge: BridgeInfo | undefined = await fetch("/__pi-kit-bridge.json")
  .then((r) => (r.ok ? (r.json() as Promise<BridgeInfo>) : undefined))
  .catch(() => undefined);

const info = (): BridgeInfo => {
  if (bridge === undefined) throw new Error("No bridge: run with the client's wtr-bridge config");
  return bridge;
};

/** The status bar's connection text. */
const label = (el: PiChat): string =>
  el.shadowRoot?.querySelector(".conn")?.textContent?.trim() ?? "";

/** Resolves once `predicate` holds, checked after each of the chat's updates. */
async function until(el: PiChat, predicate: () => boolean, what: string): Promise<void> {
  const deadline = performance.now() + 45_000;
  while (!predicate()) {
    if (performance.now() > deadline)
      throw new Error(`timed out waiting for ${what}: ${label(el)}`);
    await new Promise((resolve) => requestAnimationFrame(resolve));
    await el.updateComplete;
  }
}

async function ticket(sub: string, exp = 60): Promise<string> {
  const response = await fetch(`${info().mintUrl}?sub=${sub}&exp=${exp}`);
  return ((await response.json()) as { ticket: string }).ticket;
}

async function refusal(
  src: string,
  token: string | undefined,
  lang: "en" | "zh-CN",
): Promise<{ el: PiChat; error: PiClientError }> {
  const el = await fixture<PiChat>(
    html`<pi-chat lang=${lang} src=${src} .token=${token}></pi-chat>`,
  );
  const event = (await oneEvent(el, "pi-error")) as PiErrorEvent;
  await el.updateComplete;
  return { el, error: event.error as PiClientError };
}

let sessions = 0;
const fresh = (): string => `states-${Date.now().toString(36)}-${++sessions}`;

describe("<pi-chat src> connection states (Chromium, real bridges)", () => {
  it("says Connecting… until connected, then Connected", async () => {
    const { wsBase, token } = info();
    const el = await fixture<PiChat>(
      html`<pi-chat src=${`${wsBase}/sessions/${fresh()}/ws`} .token=${token}></pi-chat>`,
    );
    expect(label(el)).to.equal(en.connecting);
    await until(el, () => el.client !== undefined, "the client");
    await el.updateComplete;
    expect(label(el)).to.equal(en.connected);
    el.remove();
  });

  for (const lang of ["en", "zh-CN"] as const) {
    const s = lang === "en" ? en : zhCN;

    it(`names a wrong token, a missing token and a refused origin (${lang})`, async () => {
      const { wsBase, token, foreignWsBase } = info();
      const wrong = await refusal(`${wsBase}/sessions/x/ws`, "wrong-token-0123456789", lang);
      expect(wrong.error.bridgeCode).to.equal("wrong_token");
      expect(wrong.error.closeCode).to.equal(4401);
      expect(wrong.error.closeReason).to.equal("Wrong token");
      expect(wrong.error.message).to.contain("wrong_token");
      expect(label(wrong.el)).to.equal(s.refusedWrongToken);

      const missing = await refusal(`${wsBase}/sessions/x/ws`, undefined, lang);
      expect(missing.error.bridgeCode).to.equal("missing_token");
      expect(label(missing.el)).to.equal(s.refusedMissingToken);

      const foreign = await refusal(`${foreignWsBase}/sessions/x/ws`, token, lang);
      expect(foreign.error.bridgeCode).to.equal("origin_not_allowed");
      expect(foreign.error.closeCode).to.equal(4403);
      expect(label(foreign.el)).to.equal(s.refusedOrigin);
    });
  }

  it("names too many sessions while it retries, and an expired ticket once the bridge cuts it off", async () => {
    const { ticketsWsBase } = info();
    const user = fresh();
    // The ticket bridge runs one session per user: the first chat takes it.
    const first = await fixture<PiChat>(
      html`<pi-chat src=${`${ticketsWsBase}/sessions/one/ws`} .token=${await ticket(user, 2)}></pi-chat>`,
    );
    await until(first, () => first.client !== undefined, "the first chat's client");
    const second = await fixture<PiChat>(
      html`<pi-chat lang="zh-CN" src=${`${ticketsWsBase}/sessions/two/ws`} .token=${await ticket(user)}></pi-chat>`,
    );
    await until(second, () => label(second) === zhCN.refusedTooManySessions, "too many sessions");
    expect(second.client).to.equal(undefined);
    second.remove();
    // The first chat's 2 s ticket (a string: nothing renews it) runs out; the bridge closes it.
    await until(first, () => label(first) === en.refusedTicketExpired, "the ticket's expiry");
    first.remove();
  });

  it("says the bridge is unreachable while it is down, Reconnecting… after a restart, and connects again", async () => {
    const { restartable, token } = info();
    const el = await fixture<PiChat>(
      html`<pi-chat src=${`${restartable.wsBase}/sessions/${fresh()}/ws`} .token=${token}></pi-chat>`,
    );
    await until(el, () => el.client !== undefined, "the client");
    const client = el.client;
    await fetch(restartable.stopUrl, { method: "POST" });
    await until(el, () => label(el) === en.reconnecting, "Reconnecting…");
    // A chat opened while the bridge is down says so at once, and keeps trying.
    const later = await fixture<PiChat>(
      html`<pi-chat src=${`${restartable.wsBase}/sessions/${fresh()}/ws`} .token=${token}></pi-chat>`,
    );
    let failed = false;
    later.addEventListener("pi-error", () => {
      failed = true;
    });
    await until(later, () => label(later) === en.bridgeUnreachable, "bridge unreachable");
    await fetch(restartable.startUrl, { method: "POST" });
    await until(el, () => label(el) === en.connected, "connected again");
    expect(el.client).to.equal(client);
    await until(later, () => later.client !== undefined, "the later chat's client");
    expect(label(later)).to.equal(en.connected);
    expect(failed).to.equal(false);
    el.remove();
    later.remove();
  });
});
