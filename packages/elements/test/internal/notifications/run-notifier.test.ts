import { expect, fixture, html, waitUntil } from "@open-wc/testing";
import type { PiClient } from "@pi-kit/client";
import "../../../src/define.ts";
import { type PiChat, RunNotifier } from "../../../src/index.ts";
import { zhCN } from "../../../src/locales.ts";
import { answerOf } from "../../support/helpers.ts";
import { connect, type FakePi } from "../../support/ui-helpers.ts";

/** Desktop notifications as the page sees them, without a browser prompt. */
class FakeNotification {
  static permission: NotificationPermission = "granted";
  static requests = 0;
  static shown: FakeNotification[] = [];
  static async requestPermission(): Promise<NotificationPermission> {
    FakeNotification.requests++;
    FakeNotification.permission = "granted";
    return "granted";
  }
  readonly title: string;
  readonly options: NotificationOptions;
  closed = false;
  onclick: (() => void) | null = null;
  constructor(title: string, options: NotificationOptions = {}) {
    this.title = title;
    this.options = options;
    FakeNotification.shown.push(this);
  }
  close(): void {
    this.closed = true;
  }
}

let hidden = false;

function setHidden(value: boolean): void {
  hidden = value;
  document.dispatchEvent(new Event("visibilitychange"));
}

function settleRun(pi: FakePi, text: string): void {
  const message = answerOf([{ type: "text", text }]);
  pi.push({ type: "agent_start" });
  pi.push({ type: "message_start", message });
  pi.push({ type: "message_end", message });
  pi.push({ type: "agent_settled", aborted: false });
}

describe("RunNotifier", () => {
  const realNotification = globalThis.Notification;
  const title = document.title;
  let pi: FakePi;
  let client: PiClient;

  beforeEach(async () => {
    Object.defineProperty(document, "visibilityState", {
      configurable: true,
      get: () => (hidden ? "hidden" : "visible"),
    });
    Object.assign(globalThis, { Notification: FakeNotification });
    FakeNotification.permission = "granted";
    FakeNotification.shown = [];
    FakeNotification.requests = 0;
    document.title = "My app";
    ({ pi, client } = await connect());
  });

  afterEach(async () => {
    setHidden(false);
    Reflect.deleteProperty(document, "visibilityState");
    Object.assign(globalThis, { Notification: realNotification });
    document.title = title;
    await client.close();
  });

  it("stays quiet while the tab is visible", async () => {
    const notifier = new RunNotifier(client);
    const settled = new Promise((r) => client.on("run_settled", r));
    settleRun(pi, "Done.");
    await settled;
    expect(document.title).to.equal("My app");
    expect(FakeNotification.shown).to.have.length(0);
    notifier.dispose();
  });

  it("badges the title and notifies when a run ends or pi asks, until the tab is shown", async () => {
    const notifier = new RunNotifier(client);
    setHidden(true);
    settleRun(pi, "I fixed the login bug and added a test.");
    await waitUntil(() => FakeNotification.shown.length === 1);
    expect(document.title).to.equal("(1) My app");
    expect(FakeNotification.shown[0]?.title).to.equal("pi finished");
    expect(FakeNotification.shown[0]?.options.body).to.equal(
      "I fixed the login bug and added a test.",
    );
    pi.push({
      type: "extension_ui_request",
      id: "q1",
      method: "confirm",
      title: "Deploy to staging?",
      message: "Runs the deploy script.",
    });
    await waitUntil(() => FakeNotification.shown.length === 2);
    expect(document.title).to.equal("(2) My app");
    expect(FakeNotification.shown[1]?.title).to.equal("pi needs your answer");
    expect(FakeNotification.shown[1]?.options.body).to.equal("Deploy to staging?");
    // Notifications pi only shows (notify) are not a reason to call the user back.
    const shown = new Promise((r) => client.on("extension_ui_request", r));
    pi.push({ type: "extension_ui_request", id: "n1", method: "notify", message: "FYI" });
    await shown;
    expect(FakeNotification.shown).to.have.length(2);
    setHidden(false);
    expect(document.title).to.equal("My app");
    expect(FakeNotification.shown.every((n) => n.closed)).to.equal(true);
    notifier.dispose();
  });

  it("keeps to the title badge until the user allows desktop notifications", async () => {
    FakeNotification.permission = "default";
    const notifier = new RunNotifier(client, { strings: () => zhCN });
    setHidden(true);
    settleRun(pi, "好了");
    await waitUntil(() => document.title === "(1) My app");
    expect(FakeNotification.shown).to.have.length(0);
    expect(await RunNotifier.requestPermission()).to.equal("granted");
    settleRun(pi, "又好了");
    await waitUntil(() => FakeNotification.shown.length === 1);
    expect(FakeNotification.shown[0]?.title).to.equal("pi 已完成");
    notifier.dispose();
  });

  it("is one attribute on <pi-chat>, with a Notify me button until the user decides", async () => {
    FakeNotification.permission = "default";
    const chat = await fixture<PiChat>(
      html`<pi-chat notify style="height: 300px" .client=${client}></pi-chat>`,
    );
    const button = () => chat.shadowRoot?.querySelector<HTMLElement>("[part=notify-button]");
    expect(button()?.textContent?.trim()).to.equal("Notify me");
    await expect(chat).to.be.accessible();
    button()?.click();
    await waitUntil(() => button() == null, "the button stays after the choice");
    expect(FakeNotification.requests).to.equal(1);
    setHidden(true);
    settleRun(pi, "Done.");
    await waitUntil(() => FakeNotification.shown.length === 1);
    setHidden(false);
    // Turning it off (or removing the chat) stops it.
    chat.notify = false;
    await chat.updateComplete;
    setHidden(true);
    const settled = new Promise((r) => client.on("run_settled", r));
    settleRun(pi, "Again.");
    await settled;
    expect(FakeNotification.shown).to.have.length(1);
  });
});
