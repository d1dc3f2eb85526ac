import { aTimeout, expect, fixture, html, waitUntil } from "@open-wc/testing";
import type { PiClient } from "@pi-kit/client";
import { resetMouse, sendKeys, sendMouse, setViewport } from "@web/test-runner-commands";
import "../../../src/define.ts";
import type { PiNotifyEvent, PiToasts } from "../../../src/index.ts";
import { connect, type FakePi } from "../../support/ui-helpers.ts";

const q = (el: PiToasts, selector: string): HTMLElement | null =>
  (el.shadowRoot as ShadowRoot).querySelector<HTMLElement>(selector);
const all = (el: PiToasts, selector: string): HTMLElement[] => [
  ...(el.shadowRoot as ShadowRoot).querySelectorAll<HTMLElement>(selector),
];

function notify(pi: FakePi, message: string, notifyType?: string): void {
  pi.push({
    type: "extension_ui_request",
    id: message,
    method: "notify",
    message,
    ...(notifyType ? { notifyType } : {}),
  });
}

describe("<pi-toasts>", () => {
  let pi: FakePi;
  let client: PiClient;
  let el: PiToasts;

  beforeEach(async () => {
    ({ pi, client } = await connect());
    el = await fixture<PiToasts>(html`<pi-toasts .client=${client} duration="150"></pi-toasts>`);
  });

  afterEach(async () => {
    await client.close();
  });

  it("shows pi's notifications in live regions by seriousness", async () => {
    notify(pi, "plain");
    notify(pi, "careful", "warning");
    notify(pi, "broken", "error");
    await waitUntil(() => all(el, '[part="toast"]').length === 3);
    await el.updateComplete;
    expect(q(el, '[role="status"]')?.textContent).to.contain("plain").and.contain("careful");
    expect(q(el, '[role="alert"]')?.textContent).to.contain("Error:").and.contain("broken");
    await expect(el).to.be.accessible();
  });

  it("dismisses info by itself, errors only by hand", async () => {
    notify(pi, "fleeting");
    notify(pi, "sticky", "error");
    await waitUntil(() => el.toasts.length === 2);
    await aTimeout(250);
    expect(el.toasts.map((t) => t.message)).to.deep.equal(["sticky"]);
    await el.updateComplete;
    q(el, '[part="dismiss-button"]')?.click();
    await el.updateComplete;
    expect(el.toasts).to.have.length(0);
  });

  it("lets an error go too, after four times the duration", async () => {
    el.show("not forever", "error");
    await el.updateComplete;
    expect(q(el, '[role="alert"] .dismiss')).to.not.equal(null);
    await waitUntil(() => el.toasts.length === 0, "the error stayed", { timeout: 5000 });
  });

  it("shows only the newest toast, on one line, on a phone", async () => {
    el.duration = 0;
    await setViewport({ width: 390, height: 844 });
    try {
      el.show("an error that is long enough to wrap onto several lines on a phone", "error");
      el.show("a warning that is long enough to wrap onto several lines on a phone", "warning");
      el.show("the newest notice, also long enough to wrap onto several lines on a phone");
      await el.updateComplete;
      const shown = all(el, '[part="toast"]').filter((t) => t.getBoundingClientRect().height > 0);
      expect(shown.map((t) => t.textContent)).to.have.length(1);
      expect(shown[0]?.textContent).to.contain("the newest notice");
      const message = shown[0]?.querySelector('[part="message"]') as HTMLElement;
      const line = Number.parseFloat(getComputedStyle(message).lineHeight);
      expect(message.getBoundingClientRect().height).to.be.below(line * 1.5);
    } finally {
      await setViewport({ width: 800, height: 600 });
    }
  });

  it("keeps a toast while it has focus and dismisses it with Escape", async () => {
    el.show("first");
    el.show("second");
    await el.updateComplete;
    q(el, "[data-id] .dismiss")?.focus();
    await aTimeout(250);
    expect(el.toasts).to.have.length(2);
    await sendKeys({ press: "Escape" });
    await el.updateComplete;
    expect(el.toasts.map((t) => t.message)).to.deep.equal(["second"]);
    // Focus moved to the remaining toast instead of falling to the page.
    expect(
      (el.shadowRoot as ShadowRoot).activeElement?.closest("[data-id]")?.textContent,
    ).to.contain("second");
    await sendKeys({ press: "Enter" });
    await el.updateComplete;
    expect(el.toasts).to.have.length(0);
  });

  it("pauses under the pointer, and lets info go once a mouse dismissed the toast and moved on", async () => {
    el.show("sticky", "error");
    el.show("fleeting");
    await el.updateComplete;
    const dismiss = q(el, '[role="alert"] .dismiss') as HTMLElement;
    const box = dismiss.getBoundingClientRect();
    const at: [number, number] = [
      Math.round(box.x + box.width / 2),
      Math.round(box.y + box.height / 2),
    ];
    try {
      await sendMouse({ type: "move", position: at });
      await aTimeout(300);
      expect(el.toasts).to.have.length(2);
      // The click focuses the button it removes; that focus must not hold the info toast's clock.
      await sendMouse({ type: "click", position: at });
      await sendMouse({ type: "move", position: [0, 0] });
      await waitUntil(() => el.toasts.length === 0, "the info toast stayed", { timeout: 3000 });
    } finally {
      await resetMouse();
    }
  });

  it("lets the page take over a notification", async () => {
    el.addEventListener("pi-notify", (e: PiNotifyEvent) => {
      if (e.notifyType === "warning") e.preventDefault();
    });
    notify(pi, "mine", "warning");
    notify(pi, "yours");
    await waitUntil(() => el.toasts.length === 1);
    expect(el.toasts[0]?.message).to.equal("yours");
  });

  it("keeps at most `max` toasts", async () => {
    el.max = 2;
    el.show("a", "error");
    el.show("b", "error");
    el.show("c", "error");
    expect(el.toasts.map((t) => t.message)).to.deep.equal(["b", "c"]);
  });

  it("speaks Chinese under lang=zh-CN", async () => {
    const zh = await fixture<PiToasts>(html`<pi-toasts lang="zh-CN"></pi-toasts>`);
    zh.show("坏了", "error");
    await zh.updateComplete;
    expect(q(zh, '[part="type"]')?.textContent).to.equal("错误:");
    expect(q(zh, '[part="dismiss-button"]')?.getAttribute("aria-label")).to.equal("关闭通知");
  });
});
