import { ContextEvent } from "@lit/context";
import { expect, fixture, html, waitUntil } from "@open-wc/testing";
import type { PiClient } from "@pi-kit/client";
import type { AgentMessage, RpcEvent, SlashCommand } from "@pi-kit/protocol";
import { emulateMedia, sendKeys } from "@web/test-runner-commands";
import "../../../src/define.ts";
import type { PiChat, PiDialog } from "../../../src/index.ts";
import { type PiConnection, piConnectionContext } from "../../../src/internal/context.ts";
import { deepQueryAll, deepText, fakeClient, settle } from "../../support/helpers.ts";
import { connect, type FakePi, sent } from "../../support/ui-helpers.ts";

const commands: SlashCommand[] = [
  { name: "compact", description: "Compact the context", source: "builtin" },
  { name: "ui", description: "Open a test dialog", source: "extension" },
];

async function chatWith(client: PiClient, attributes = ""): Promise<PiChat> {
  const wrapper = await fixture<HTMLDivElement>(
    html`<div .innerHTML=${`<pi-chat style="height: 420px" ${attributes}></pi-chat>`}></div>`,
  );
  const chat = wrapper.querySelector("pi-chat") as PiChat;
  chat.client = client;
  await settle(chat);
  return chat;
}

const builtIn = <K extends "pi-dialog" | "pi-toasts">(chat: PiChat, tag: K) =>
  chat.shadowRoot?.querySelector(tag) ?? null;

describe("<pi-chat> hosts dialogs, toasts and the connection", () => {
  let pi: FakePi;
  let client: PiClient;

  beforeEach(async () => {
    ({ pi, client } = await connect({ get_commands: { commands } }));
  });

  afterEach(async () => {
    await client.close();
  });

  it("answers a dialog pi opens during a prompt, and shows its notifications", async () => {
    const chat = await chatWith(client);
    pi.handlers.set("prompt", () => undefined);
    void chat.send("/ui select");
    await pi.waitFor("prompt");
    pi.push({
      type: "extension_ui_request",
      id: "d1",
      method: "select",
      title: "Pick one",
      options: ["A", "B"],
    });
    const dialog = builtIn(chat, "pi-dialog") as PiDialog;
    await waitUntil(() => {
      dialog.flush();
      return dialog.shadowRoot?.querySelector("[part=panel]") !== null;
    });
    // Non-modal, above the composer: the transcript stays in the page.
    expect(dialog.closest(".bottom")).to.not.equal(null);
    await dialog.updateComplete;
    await sendKeys({ press: "ArrowDown" });
    await sendKeys({ press: "Enter" });
    await waitUntil(() => sent(pi, "extension_ui_response").length === 1);
    expect(sent(pi, "extension_ui_response")[0]).to.include({ id: "d1", value: "B" });
    pi.push({ type: "extension_ui_request", id: "n1", method: "notify", message: "picked B" });
    const toasts = builtIn(chat, "pi-toasts");
    await waitUntil(() => toasts?.toasts.length === 1);
    expect(toasts?.toasts[0]).to.include({ message: "picked B", type: "info" });
  });

  it("leaves dialogs and toasts to the page with no-dialogs and no-toasts", async () => {
    const chat = await chatWith(client, "no-dialogs no-toasts");
    expect(builtIn(chat, "pi-dialog")).to.equal(null);
    expect(builtIn(chat, "pi-toasts")).to.equal(null);
  });

  it("lets the first dialog element of a client answer; a later one stands by, then takes over", async () => {
    const chat = await chatWith(client);
    const page = await fixture<PiDialog>(html`<pi-dialog .client=${client}></pi-dialog>`);
    pi.push({
      type: "extension_ui_request",
      id: "d2",
      method: "confirm",
      title: "Sure?",
      message: "really",
    });
    const own = builtIn(chat, "pi-dialog") as PiDialog;
    await waitUntil(() => {
      own.flush();
      page.flush();
      return own.pending.length === 1;
    });
    await page.updateComplete;
    expect(page.pending).to.have.length(0);
    chat.remove();
    await waitUntil(() => {
      page.flush();
      return page.pending.length === 1;
    });
    page.answer(true);
    await waitUntil(() => sent(pi, "extension_ui_response").length === 1);
    expect(sent(pi, "extension_ui_response")[0]).to.include({ id: "d2", confirmed: true });
  });

  it("provides its connection to slotted elements", async () => {
    const chat = await chatWith(client);
    const slotted = document.createElement("div");
    slotted.slot = "header";
    chat.append(slotted);
    let provided: PiConnection | undefined;
    slotted.dispatchEvent(
      new ContextEvent(piConnectionContext, slotted, (value) => {
        provided = value;
      }),
    );
    expect(provided?.client).to.equal(client);
  });

  it("opens the slash menu on `/`; its keys never send or stop", async () => {
    const chat = await chatWith(client);
    const composer = chat.composer;
    const input = composer?.input as HTMLTextAreaElement;
    input.focus();
    await sendKeys({ type: "/" });
    const menu = composer?.slashMenu;
    await waitUntil(() => menu?.results.length === 2, "commands listed");
    expect(sent(pi, "get_commands")).to.have.length(1);
    await menu?.updateComplete;
    const options = menu?.shadowRoot?.querySelectorAll("[role=option]") ?? [];
    expect([...options].map((o) => o.textContent)).to.have.length(2);
    await sendKeys({ press: "ArrowDown" });
    await sendKeys({ press: "Enter" });
    expect(input.value).to.equal("/ui ");
    expect(menu?.open).to.equal(false);
    expect(sent(pi, "prompt")).to.have.length(0);
    // Escape closes the menu instead of stopping a run.
    await feedRunning(chat);
    input.value = "";
    await sendKeys({ type: "/c" });
    await waitUntil(() => menu?.open === true);
    await sendKeys({ press: "Escape" });
    await menu?.updateComplete;
    expect(menu?.open).to.equal(false);
    expect(sent(pi, "abort")).to.have.length(0);
  });

  async function feedRunning(chat: PiChat): Promise<void> {
    pi.push({ type: "agent_start" });
    await waitUntil(() => {
      chat.flush();
      return chat.snapshot?.isRunning === true;
    });
    await settle(chat);
  }
});

describe("theme inheritance", () => {
  afterEach(async () => {
    await emulateMedia({ colorScheme: "light" });
  });

  const bg = (el: Element | null | undefined): string =>
    getComputedStyle(el as Element).backgroundColor;

  async function nested(
    theme: string,
  ): Promise<{ chat: PiChat; dialog: Element; composer: Element }> {
    const { client } = fakeClient();
    const chat = await chatWith(client, `theme="${theme}"`);
    return {
      chat,
      dialog: builtIn(chat, "pi-dialog") as Element,
      composer: chat.composer?.shadowRoot?.querySelector("[part=composer]") as Element,
    };
  }

  it("nested elements follow a light chat on a dark OS", async () => {
    await emulateMedia({ colorScheme: "dark" });
    const { chat, dialog, composer } = await nested("light");
    expect(bg(chat)).to.equal("rgb(255, 255, 255)");
    expect(bg(composer)).to.equal("rgb(255, 255, 255)");
    expect(getComputedStyle(dialog).getPropertyValue("--_color-bg").trim()).to.equal("#ffffff");
    expect(getComputedStyle(dialog).colorScheme).to.equal("light");
  });

  it("nested elements follow a dark chat on a light OS", async () => {
    await emulateMedia({ colorScheme: "light" });
    const { chat, dialog, composer } = await nested("dark");
    expect(bg(chat)).to.equal("rgb(22, 24, 29)");
    expect(bg(composer)).to.equal("rgb(22, 24, 29)");
    expect(getComputedStyle(dialog).getPropertyValue("--_color-bg").trim()).to.equal("#16181d");
  });

  it("without a theme everything follows the OS, and a nested theme wins below it", async () => {
    await emulateMedia({ colorScheme: "dark" });
    const { chat, composer } = await nested("auto");
    expect(bg(chat)).to.equal("rgb(22, 24, 29)");
    expect(bg(composer)).to.equal("rgb(22, 24, 29)");
    chat.composer?.setAttribute("theme", "light");
    expect(bg(composer)).to.equal("rgb(255, 255, 255)");
  });
});

describe("<pi-chat> direct bash runs", () => {
  const execution = (command: string, output: string): AgentMessage => ({
    role: "bashExecution",
    command,
    output,
    exitCode: 0,
    cancelled: false,
    truncated: false,
    timestamp: 1,
  });

  it("shows a run once: as a run until the session model records its message, then as that message", async () => {
    const { client, session } = fakeClient();
    const chat = await chatWith(client);
    const count = (): number => deepText(chat.shadowRoot as ShadowRoot).split("echo hi").length - 1;
    // An identical run in older history must not hide the new one.
    session.handleEvent({
      type: "message_start",
      message: execution("echo hi", "hi\n"),
    } as RpcEvent);
    session.handleEvent({ type: "message_end", message: execution("echo hi", "hi\n") } as RpcEvent);
    const result = { output: "hi\n", exitCode: 0, cancelled: false, truncated: false };
    session.bashStarted(1, "echo hi");
    session.bashFinished(1, result);
    await Promise.resolve();
    await settle(chat);
    expect(count()).to.equal(2);
    // The client records the call as pi's transcript holds it: the message replaces the run.
    session.bashRecorded(1, "echo hi", result, undefined, false);
    await Promise.resolve();
    await settle(chat);
    expect(count()).to.equal(2);
    expect(deepQueryAll(chat.shadowRoot as ShadowRoot, "pi-message").length).to.equal(2);
  });
});
