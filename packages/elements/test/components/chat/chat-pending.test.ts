// Text the user typed is never cleared unless it reached pi: what is sent before the chat is
// connected waits, visibly pending, and goes once connected; a watcher keeps it in the composer.
// And a visible, politely announced sign of progress until the answer starts.
import { expect, fixture, html, oneEvent, waitUntil } from "@open-wc/testing";
import { ControlChangeEvent, type ControlState, PiClient } from "@pi-kit/client";
import type { RpcEvent } from "@pi-kit/protocol";
import "../../../src/define.ts";
import { fail } from "../../../../client/test/support/fake-pi.ts";
import type { PiChat, PiErrorEvent, PiSendEvent } from "../../../src/index.ts";
import { answerOf, deepQueryAll, deepText } from "../../support/helpers.ts";
import { FakePi, sent } from "../../support/ui-helpers.ts";

/** A FakePi whose transport reports a connection state, as the WebSocket transport does. */
function stateful(initial: string, control?: ControlState) {
  const pi = new FakePi("1");
  let status = initial;
  const transport = Object.assign(new EventTarget(), pi.transport, {
    async takeControl(): Promise<ControlState> {
      throw new Error("not in this test");
    },
  });
  Object.defineProperty(transport, "state", { get: () => ({ status }) });
  Object.defineProperty(transport, "control", { get: () => control });
  const setStatus = (next: string): void => {
    status = next;
    transport.dispatchEvent(new Event("statechange"));
  };
  const setControl = (next: ControlState): void => {
    control = next;
    transport.dispatchEvent(new ControlChangeEvent(next));
  };
  return { pi, client: new PiClient(transport, { capabilities: "1" }), setStatus, setControl };
}

const part = (chat: PiChat, name: string): HTMLElement | null | undefined =>
  chat.shadowRoot?.querySelector(`[part~=${name}]`);

const pendingTexts = (chat: PiChat): string[] =>
  [...(chat.shadowRoot?.querySelectorAll("[part=pending-message]") ?? [])].map((el) =>
    deepText(el).replace(/\s+/g, " ").trim(),
  );

/** Types `text` into the chat's composer and presses Enter. */
async function type(chat: PiChat, text: string): Promise<void> {
  await chat.updateComplete;
  const composer = chat.composer;
  if (composer === null) throw new Error("no composer");
  await composer.updateComplete;
  composer.setText(text);
  composer.input?.dispatchEvent(
    new KeyboardEvent("keydown", { key: "Enter", bubbles: true, composed: true, cancelable: true }),
  );
  await chat.updateComplete;
}

const watcher: ControlState = {
  you: { id: 2, label: "Phone", readOnly: false },
  controller: { id: 1, label: "Desk" },
  viewers: 2,
  inControl: false,
};

describe("<pi-chat> before it is connected", () => {
  it("with no client yet: the message waits, visibly pending, then goes to the client it gets", async () => {
    const chat = await fixture<PiChat>(html`<pi-chat style="height: 400px"></pi-chat>`);
    const events: PiSendEvent[] = [];
    chat.addEventListener("pi-send", (e) => events.push(e));
    await type(chat, "hello early");
    expect(events.map((e) => e.text)).to.deep.equal(["hello early"]);
    expect(pendingTexts(chat)).to.deep.equal(["You hello early Sending when connected…"]);
    expect(chat.composer?.value).to.equal("");
    // The message is in the conversation already: the empty state (suggestions) steps aside.
    expect(chat.matches(":state(empty)")).to.equal(false);
    await expect(chat).to.be.accessible();

    const pi = new FakePi("1");
    chat.client = new PiClient(pi.transport, { capabilities: "1" });
    await waitUntil(() => sent(pi, "prompt").length === 1);
    expect(sent(pi, "prompt")[0]?.message).to.equal("hello early");
    await waitUntil(() => pendingTexts(chat).length === 0);
  });

  it("connecting, while the page connects its client itself: the status says so, not No client", async () => {
    const chat = await fixture<PiChat>(html`<pi-chat connecting></pi-chat>`);
    const conn = (): string | undefined =>
      chat.shadowRoot?.querySelector(".conn")?.textContent?.trim();
    expect(conn()).to.equal("Connecting…");
    chat.lang = "zh-CN";
    await waitUntil(() => conn() === "正在连接…", "the status in Chinese");
    chat.lang = "en";
    chat.connecting = false;
    await waitUntil(() => conn() === "No client", "No client, once not connecting");
  });

  it("while connecting and reconnecting: waits, in order, and goes once connected", async () => {
    const { pi, client, setStatus } = stateful("connecting");
    const chat = await fixture<PiChat>(
      html`<pi-chat style="height: 400px" .client=${client}></pi-chat>`,
    );
    await type(chat, "first");
    // send() resolves once pi answered: not yet.
    void chat.send("second");
    await chat.updateComplete;
    expect(pendingTexts(chat)).to.deep.equal([
      "You first Sending when connected…",
      "You second Sending when connected…",
    ]);
    expect(sent(pi, "prompt")).to.have.length(0);
    setStatus("open");
    await waitUntil(() => sent(pi, "prompt").length === 2);
    // The second goes after pi answered the first, saying to follow up if that run is on.
    expect(sent(pi, "prompt").map((c) => [c.message, c.streamingBehavior])).to.deep.equal([
      ["first", undefined],
      ["second", "followUp"],
    ]);
    await waitUntil(() => pendingTexts(chat).length === 0);

    setStatus("reconnecting");
    await chat.updateComplete;
    await type(chat, "during the drop");
    expect(pendingTexts(chat)).to.deep.equal(["You during the drop Sending when connected…"]);
    const before = pi.written.length;
    await chat.updateComplete;
    expect(pi.written.length).to.equal(before);
    setStatus("open");
    await waitUntil(() => pi.written.some((c) => c.message === "during the drop"));
  });

  it("a message for a connection the page replaced (another conversation) comes back to the composer", async () => {
    const first = stateful("reconnecting");
    const chat = await fixture<PiChat>(
      html`<pi-chat style="height: 400px" .client=${first.client}></pi-chat>`,
    );
    await type(chat, "meant for the first");
    expect(pendingTexts(chat)).to.have.length(1);
    const second = stateful("open");
    chat.client = second.client;
    await waitUntil(() => chat.composer?.value === "meant for the first");
    expect(pendingTexts(chat)).to.deep.equal([]);
    expect(sent(second.pi, "prompt")).to.have.length(0);
  });

  it("a watcher keeps the text in the composer: sending is off and says why", async () => {
    const { pi, client, setControl } = stateful("open", watcher);
    const chat = await fixture<PiChat>(
      html`<pi-chat style="height: 400px" .client=${client}></pi-chat>`,
    );
    await type(chat, "not mine to send");
    expect(chat.composer?.value).to.equal("not mine to send");
    expect(chat.composer?.input?.placeholder).to.equal("Watching — take control to send");
    expect((part(chat.composer as unknown as PiChat, "send-button") as HTMLButtonElement).disabled)
      .to.be.true;
    // A message sent by script while watching comes back to the composer too.
    await chat.send("suggested"); // resolves at once: given back
    expect(chat.composer?.value).to.equal("suggested\n\nnot mine to send");
    expect(pendingTexts(chat)).to.deep.equal([]);
    expect(sent(pi, "prompt")).to.have.length(0);
    // Once in control, the composer invites a message again.
    setControl({ ...watcher, inControl: true, controller: watcher.you });
    await chat.updateComplete;
    expect(chat.composer?.input?.placeholder).to.equal("Message pi…");
  });

  it("a connection closed for good keeps the text in the composer, sending off", async () => {
    const { client, setStatus } = stateful("open");
    const chat = await fixture<PiChat>(
      html`<pi-chat style="height: 400px" .client=${client}></pi-chat>`,
    );
    setStatus("closed");
    await chat.updateComplete;
    await type(chat, "kept");
    expect(chat.composer?.value).to.equal("kept");
    expect(chat.composer?.disabled).to.equal(true);
    // The status bar says why.
    expect(deepText(part(chat, "status-bar") as HTMLElement)).to.contain("Disconnected");
  });

  it("connected, a message goes at once, even while an earlier prompt is unanswered", async () => {
    const pi = new FakePi("1");
    pi.handlers.set("prompt", () => undefined); // a command whose dialog holds its prompt open
    const client = new PiClient(pi.transport, { capabilities: "1" });
    const chat = await fixture<PiChat>(
      html`<pi-chat style="height: 400px" .client=${client}></pi-chat>`,
    );
    await type(chat, "/confirm");
    await waitUntil(() => sent(pi, "prompt").length === 1);
    await type(chat, "typed meanwhile");
    await waitUntil(() => sent(pi, "prompt").length === 2);
    expect(sent(pi, "prompt")[1]?.message).to.equal("typed meanwhile");
    expect(pendingTexts(chat)).to.deep.equal([]);
  });

  it("once the answer ended, the next message is a prompt, though pi has not settled yet", async () => {
    const pi = new FakePi("1");
    const client = new PiClient(pi.transport, { capabilities: "1" });
    const chat = await fixture<PiChat>(
      html`<pi-chat style="height: 400px" .client=${client}></pi-chat>`,
    );
    await type(chat, "first");
    await waitUntil(() => sent(pi, "prompt").length === 1);
    pi.push({ type: "agent_start" });
    pi.push({ type: "agent_end", messages: [] });
    // The client's run lasts until agent_settled; what the user sees ended with agent_end.
    await waitUntil(() => chat.snapshot?.isRunning === false && client.isRunning);
    await type(chat, "/next");
    await waitUntil(() => sent(pi, "prompt").length === 2);
    expect(sent(pi, "follow_up")).to.have.length(0);
  });

  it("a send pi refuses gives the text back to the composer and fires pi-error", async () => {
    const pi = new FakePi("1");
    pi.handlers.set("prompt", (command) => [fail(command, "nope")]);
    const client = new PiClient(pi.transport, { capabilities: "1" });
    const chat = await fixture<PiChat>(
      html`<pi-chat style="height: 400px" .client=${client}></pi-chat>`,
    );
    const failed = oneEvent(chat, "pi-error") as Promise<PiErrorEvent>;
    await type(chat, "refused text");
    expect((await failed).action).to.equal("send");
    await waitUntil(() => chat.composer?.value === "refused text");
  });
});

describe("<pi-chat> progress", () => {
  it("shows and politely announces progress from the send until the answer starts, and while a tool runs", async () => {
    const pi = new FakePi("1");
    pi.handlers.set("prompt", () => undefined); // pi answers later, by hand
    const client = new PiClient(pi.transport, { capabilities: "1" });
    const chat = await fixture<PiChat>(
      html`<pi-chat style="height: 400px" .client=${client}></pi-chat>`,
    );
    const progress = part(chat, "progress") as HTMLElement;
    expect(progress.getAttribute("role")).to.equal("status");
    expect(progress.getAttribute("aria-live")).to.equal("polite");
    expect(progress.textContent?.trim()).to.equal("");
    await type(chat, "go");
    await waitUntil(() => sent(pi, "prompt").length === 1);
    await waitUntil(() => progress.textContent?.trim() === "pi is working…");
    expect(progress.querySelector("[role=progressbar]")?.getAttribute("aria-label")).to.equal(
      "pi is working…",
    );
    await expect(chat).to.be.accessible();
    const command = sent(pi, "prompt")[0];
    pi.push({
      id: command?.id,
      type: "response",
      command: "prompt",
      success: true,
      data: { disposition: "started" },
    });
    const events: RpcEvent[] = [
      { type: "agent_start" } as RpcEvent,
      {
        type: "tool_execution_start",
        toolCallId: "t1",
        toolName: "bash",
        args: { command: "ls" },
      } as RpcEvent,
    ];
    for (const event of events) pi.push(event);
    await waitUntil(() => progress.textContent?.trim() === "Running bash…");
    pi.push({
      type: "tool_execution_end",
      toolCallId: "t1",
      toolName: "bash",
      result: {},
      isError: false,
    });
    pi.push({
      type: "message_start",
      message: answerOf([]),
    });
    // The answer has started: it says "Thinking…" itself; the progress line steps aside.
    await waitUntil(() => progress.textContent?.trim() === "");
  });
});

describe("<pi-chat outbox-key>: waiting messages survive a reload", () => {
  afterEach(() => sessionStorage.clear());

  it("kept per conversation until pi took them, then sent once, in order, after a reload", async () => {
    const before = await fixture<PiChat>(
      html`<pi-chat style="height: 400px" outbox-key="talk-a" connecting></pi-chat>`,
    );
    await type(before, "first");
    void before.send("second");
    await waitUntil(() => sessionStorage.getItem("pi-kit:outbox:talk-a")?.includes("second"));
    // The page goes away (a reload): the element with it.
    before.remove();

    const other = await fixture<PiChat>(html`<pi-chat outbox-key="talk-b" connecting></pi-chat>`);
    const after = await fixture<PiChat>(
      html`<pi-chat style="height: 400px" outbox-key="talk-a" connecting></pi-chat>`,
    );
    await waitUntil(() => pendingTexts(after).length === 2, "the kept messages, pending again");
    expect(pendingTexts(after)).to.deep.equal([
      "You first Sending when connected…",
      "You second Sending when connected…",
    ]);
    expect(pendingTexts(other), "not in another conversation").to.deep.equal([]);

    const { pi, client } = stateful("open");
    after.client = client;
    await waitUntil(() => sent(pi, "prompt").length === 2);
    expect(sent(pi, "prompt").map((c) => c.message)).to.deep.equal(["first", "second"]);
    await waitUntil(() => sessionStorage.getItem("pi-kit:outbox:talk-a") === null, "pi took them");
    after.remove();
    const again = await fixture<PiChat>(html`<pi-chat outbox-key="talk-a"></pi-chat>`);
    await again.updateComplete;
    expect(pendingTexts(again), "sent once").to.deep.equal([]);
  });
});

describe("<pi-chat> with its socket down", () => {
  it("a run no longer looks live: no caret, no progress, Send instead of Stop, Steer and Follow up", async () => {
    const { pi, client, setStatus } = stateful("open");
    const chat = await fixture<PiChat>(
      html`<pi-chat style="height: 400px" .client=${client}></pi-chat>`,
    );
    pi.push({ type: "agent_start" });
    pi.push({ type: "message_start", message: answerOf([{ type: "text", text: "" }]) });
    pi.push({
      type: "message_update",
      assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: "Half an answer" },
    } as unknown as RpcEvent);
    const composer = chat.composer as unknown as PiChat;
    const caret = (): string => {
      const [block] = deepQueryAll(chat.shadowRoot as ShadowRoot, ".md > .block:last-child > p");
      return block === undefined ? "no text" : getComputedStyle(block, "::after").content;
    };
    await waitUntil(() => caret() === '"▍"', "the caret while the run streams");
    expect(chat.matches(":state(running)")).to.equal(true);
    expect(part(composer, "stop-button")).to.not.equal(null);

    setStatus("reconnecting");
    await waitUntil(() => !chat.matches(":state(running)"), "not running while the socket is down");
    await chat.updateComplete;
    expect(caret()).to.equal("none");
    expect(part(composer, "stop-button")).to.equal(null);
    expect(part(composer, "steer-button")).to.equal(null);
    expect(part(composer, "send-button")?.textContent?.trim()).to.equal("Send");
    expect(part(chat, "progress")?.textContent?.trim()).to.equal("");
    // What is typed meanwhile waits, and goes as a follow-up once the run is followed again.
    await type(chat, "after the drop");
    expect(pendingTexts(chat)).to.deep.equal(["You after the drop Sending when connected…"]);
    setStatus("open");
    await waitUntil(() => chat.matches(":state(running)"), "live again");
    await waitUntil(() => sent(pi, "follow_up").length === 1);
    expect(caret()).to.equal('"▍"');
  });
});
