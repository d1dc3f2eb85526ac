// A viewer that watches a shared bridge session: a read-only chat with a way to take control.
import { expect, fixture, html, oneEvent, waitUntil } from "@open-wc/testing";
import { ControlChangeEvent, type ControlState, PiClient } from "@pi-kit/client";
import "../../../src/define.ts";
import { fail } from "../../../../client/test/support/fake-pi.ts";
import type { PiChat, PiErrorEvent } from "../../../src/index.ts";
import { deepText } from "../../support/helpers.ts";
import { FakePi } from "../../support/ui-helpers.ts";

const desk = { id: 1, label: "Desk" };
const phone = { id: 2, label: "Phone", readOnly: false };

/** A FakePi transport that reports control as the WebSocket transport does. */
function sharedSession(initial: ControlState, refuse?: Error) {
  const pi = new FakePi("1");
  let control: ControlState | undefined = initial;
  const transport = Object.assign(new EventTarget(), pi.transport, {
    takes: 0,
    async takeControl(): Promise<ControlState> {
      transport.takes++;
      if (refuse !== undefined) throw refuse;
      set({ ...initial, controller: phone, inControl: true });
      return control as ControlState;
    },
  });
  Object.defineProperty(transport, "control", { get: () => control });
  const set = (next: ControlState | undefined): void => {
    control = next;
    transport.dispatchEvent(new ControlChangeEvent(next));
  };
  const client = new PiClient(transport, { capabilities: "1" });
  return { pi, client, transport, set };
}

const watching: ControlState = {
  you: phone,
  controller: desk,
  viewers: 2,
  inControl: false,
};

const part = (chat: PiChat, name: string): HTMLElement | null | undefined =>
  chat.shadowRoot?.querySelector(`[part~=${name}]`);

describe("<pi-chat> watching a shared session", () => {
  it("disables the composer with who is in control, and takes control on request", async () => {
    const { client, transport } = sharedSession(watching);
    const chat = await fixture<PiChat>(
      html`<pi-chat style="height: 400px" .client=${client}></pi-chat>`,
    );
    await chat.updateComplete;
    expect(part(chat, "watch-bar")?.textContent?.replace(/\s+/g, " ").trim()).to.equal(
      "Watching — Desk is in control Take control",
    );
    expect(chat.composer?.disabled).to.equal(true);
    expect(chat.matches(":state(watching)")).to.equal(true);

    (part(chat, "take-control-button") as HTMLButtonElement).click();
    await waitUntil(() => part(chat, "watch-bar") === null);
    expect(transport.takes).to.equal(1);
    expect(chat.composer?.disabled).to.equal(false);
    expect(chat.matches(":state(watching)")).to.equal(false);
  });

  it("says when nobody controls, in zh-CN too; a read-only viewer gets no button", async () => {
    const { client, set } = sharedSession({ ...watching, controller: null });
    const chat = await fixture<PiChat>(html`<pi-chat lang="zh-CN" .client=${client}></pi-chat>`);
    await chat.updateComplete;
    expect(part(chat, "watch-bar")?.querySelector("span")?.textContent).to.equal(
      "旁观中 — 当前无人控制",
    );
    expect(part(chat, "take-control-button")?.textContent).to.equal("接管控制");
    chat.lang = "en";
    set({ ...watching, you: { ...phone, readOnly: true } });
    await waitUntil(
      () => part(chat, "watch-bar")?.querySelector("span")?.textContent === "Watching — read-only",
    );
    expect(part(chat, "take-control-button")).to.equal(null);
    // Once the socket drops the bridge has not said anything yet: the composer is not locked.
    set(undefined);
    await waitUntil(() => part(chat, "watch-bar") === null);
  });

  it("a refused take-control is a pi-error with action take-control", async () => {
    const { client } = sharedSession(watching, new Error("read-only"));
    const chat = await fixture<PiChat>(html`<pi-chat .client=${client}></pi-chat>`);
    await chat.updateComplete;
    const failed = oneEvent(chat, "pi-error") as Promise<PiErrorEvent>;
    (part(chat, "take-control-button") as HTMLButtonElement).click();
    const event = await failed;
    expect(event.action).to.equal("take-control");
    expect(String(event.error)).to.contain("read-only");
  });

  it("shows a pending dialog to a watcher without a way to answer it", async () => {
    const { pi, client } = sharedSession(watching);
    const chat = await fixture<PiChat>(
      html`<pi-chat style="height: 400px" .client=${client}></pi-chat>`,
    );
    await chat.updateComplete;
    pi.push({
      type: "extension_ui_request",
      id: "d1",
      method: "select",
      title: "Pick one",
      options: ["red", "blue"],
    });
    const dialog = () => chat.shadowRoot?.querySelector("pi-dialog");
    await waitUntil(() => dialog()?.shadowRoot?.querySelector("[part=panel]"));
    const panel = dialog()?.shadowRoot?.querySelector("[part=panel]") as HTMLElement;
    expect(panel.textContent).to.contain("Pick one");
    expect(panel.textContent).to.contain("blue");
    expect(panel.querySelector("[part=hint]")?.textContent).to.equal(
      "Only the viewer in control can answer",
    );
    expect(panel.querySelectorAll("button").length).to.equal(0);
    dialog()?.answer("red");
    dialog()?.cancel();
    await chat.updateComplete;
    expect(pi.written.filter((c) => c.type === "extension_ui_response")).to.deep.equal([]);
  });

  it("during a run Stop, Steer and Follow up are off for a watcher, and say why", async () => {
    const { pi, client, set } = sharedSession(watching);
    const chat = await fixture<PiChat>(
      html`<pi-chat style="height: 400px" .client=${client}></pi-chat>`,
    );
    pi.push({ type: "agent_start" });
    const composer = chat.composer as unknown as PiChat;
    await waitUntil(() => part(composer, "stop-button"), "the run's buttons");
    for (const name of ["stop-button", "steer-button", "send-button"]) {
      const button = part(composer, name) as HTMLButtonElement;
      expect(button.disabled, name).to.equal(true);
      expect(button.title, name).to.equal("Watching — take control to send");
    }
    // Escape does not stop the run either.
    chat.composer?.input?.dispatchEvent(
      new KeyboardEvent("keydown", { key: "Escape", bubbles: true, composed: true }),
    );
    expect(pi.written.filter((c) => c.type === "abort")).to.deep.equal([]);
    set({ ...watching, controller: phone, inControl: true });
    await waitUntil(() => !(part(composer, "stop-button") as HTMLButtonElement).disabled);
  });
});

describe("<pi-chat> shows every refusal, not only as pi-error", () => {
  const toasts = (chat: PiChat): string =>
    deepText(chat.shadowRoot?.querySelector("pi-toasts") as HTMLElement);

  it("a refused take-control, Stop and send each show in the chat", async () => {
    const { pi, client, set } = sharedSession(watching, new Error("this connection is read-only"));
    pi.handlers.set("abort", (c) => [fail(c, "this connection is watching")]);
    pi.handlers.set("prompt", (c) => [fail(c, "Extension commands cannot be queued")]);
    const chat = await fixture<PiChat>(html`<pi-chat .client=${client}></pi-chat>`);
    await chat.updateComplete;
    (part(chat, "take-control-button") as HTMLButtonElement).click();
    await waitUntil(() => toasts(chat).includes("this connection is read-only"), "take-control");

    set({ ...watching, controller: phone, inControl: true });
    await chat.abort();
    await waitUntil(() => toasts(chat).includes("this connection is watching"), "abort");
    await chat.send("/demo-confirm");
    await waitUntil(() => toasts(chat).includes("Extension commands cannot be queued"), "send");
    expect(chat.composer?.value, "the text is given back").to.equal("/demo-confirm");
  });
});
