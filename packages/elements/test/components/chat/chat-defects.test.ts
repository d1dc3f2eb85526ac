// Defects a new user found in the chat, each with the test that shows it fixed.
import { expect, fixture, html, waitUntil } from "@open-wc/testing";
import { PiClient } from "@pi-kit/client";
import type { AgentMessage, AssistantMessage, RpcEvent, SlashCommand } from "@pi-kit/protocol";
import { resetMouse, sendKeys, sendMouse } from "@web/test-runner-commands";
import "../../../src/define.ts";
import { failureKind, readableError } from "../../../src/components/chat/error-notice.ts";
import type { PiChat } from "../../../src/index.ts";
import { answerOf, deepQueryAll, deepText, fakeClient, settle } from "../../support/helpers.ts";
import { FakePi } from "../../support/ui-helpers.ts";

function answer(text: string, extra: Partial<AssistantMessage> = {}): AssistantMessage {
  return answerOf(text ? [{ type: "text", text }] : [], extra);
}

const failed = (attempt: number): AssistantMessage =>
  answer("", {
    stopReason: "error",
    errorMessage: `503: {"message":"Overloaded (attempt ${attempt})","type":"server_error"}`,
  });

async function chatWith(
  messages: AgentMessage[],
  attrs = html``,
): Promise<{ chat: PiChat; calls: string[][] }> {
  const { client, session, calls } = fakeClient();
  const chat = await fixture<PiChat>(
    html`<pi-chat style="height: 500px" .client=${client} ${attrs}></pi-chat>`,
  );
  for (const message of messages) session.handleEvent({ type: "message_end", message } as RpcEvent);
  await settle(chat);
  return { chat, calls };
}

const errors = (chat: PiChat): HTMLElement[] =>
  deepQueryAll<HTMLElement>(chat.shadowRoot as ShadowRoot, "[part=error]");

/** Centre of an element, for the mouse. */
function centre(el: Element): [number, number] {
  const box = el.getBoundingClientRect();
  return [Math.round(box.x + box.width / 2), Math.round(box.y + box.height / 2)];
}

describe("<pi-chat> defects found as a new user", () => {
  afterEach(() => resetMouse());

  it("clicking Send keeps the focus in the text box", async () => {
    const { chat, calls } = await chatWith([]);
    const input = chat.composer?.input as HTMLTextAreaElement;
    input.focus();
    await sendKeys({ type: "hello" });
    const send = chat.composer?.shadowRoot?.querySelector("[part=send-button]") as HTMLElement;
    await sendMouse({ type: "click", position: centre(send) });
    await waitUntil(() => calls.length === 1);
    expect(calls).to.deep.equal([["prompt", "hello"]]);
    expect(chat.composer?.shadowRoot?.activeElement).to.equal(input);
    // From the keyboard too: Tab to Send, Enter, and the focus is back in the text box.
    await sendKeys({ type: "again" });
    send.focus();
    await sendKeys({ press: "Enter" });
    await waitUntil(() => calls.length === 2);
    expect(chat.composer?.shadowRoot?.activeElement).to.equal(input);
  });

  it("sends a fully typed slash command on the first Enter", async () => {
    const { chat, calls } = await chatWith([]);
    const commands: SlashCommand[] = [
      { name: "compact-all", description: "Compact everything", source: "extension" },
      { name: "compact", description: "Compact the context", source: "builtin" },
    ];
    const menu = chat.composer?.slashMenu;
    if (menu) menu.commands = commands;
    chat.composer?.input?.focus();
    await sendKeys({ type: "/compact" });
    await waitUntil(() => menu?.open === true);
    await sendKeys({ press: "Enter" });
    await waitUntil(() => calls.length === 1);
    expect(calls).to.deep.equal([["prompt", "/compact"]]);
    expect(menu?.open).to.equal(false);
    // A partly typed name still completes first.
    await sendKeys({ type: "/compact-" });
    await waitUntil(() => menu?.open === true);
    await sendKeys({ press: "Enter" });
    await chat.updateComplete;
    expect(chat.composer?.value).to.equal("/compact-all ");
    expect(calls).to.have.length(1);
  });

  it("hides the system-prompt notice unless show-internal is set", async () => {
    const system = {
      role: "system",
      content: "",
      sections: { preamble: "You are pi." },
      toolsAdded: ["read", "bash", "edit", "write"],
      timestamp: 0,
    } as unknown as AgentMessage;
    const hello: AgentMessage = { role: "user", content: "hi", timestamp: 0 };
    const { chat } = await chatWith([system, hello, answer("Hello!")]);
    expect(deepText(chat.shadowRoot as ShadowRoot)).to.not.contain("System prompt updated");
    chat.showInternal = true;
    await settle(chat);
    expect(deepText(chat.shadowRoot as ShadowRoot)).to.contain("System prompt updated (4 tools)");
    // A transcript of internal notices only is still empty.
    const { chat: empty } = await chatWith([system]);
    expect(empty.matches(":state(empty)")).to.equal(true);
  });

  it("shows the failed attempts of one request as one error, with the count and a hint", async () => {
    const prompt: AgentMessage = { role: "user", content: "hi", timestamp: 0 };
    const { chat } = await chatWith([prompt, failed(1), failed(2), failed(3), failed(4)]);
    const boxes = errors(chat);
    expect(boxes).to.have.length(1);
    const text = deepText(boxes[0] as HTMLElement).replace(/\s+/g, " ");
    // The count is said once, not "(attempt 4) (4 attempts failed)".
    expect(text).to.contain("Error: 503 · Overloaded (4 attempts failed)");
    expect(text).to.not.contain("(attempt 4)");
    expect(text).to.contain("The provider had a problem on its side");
    await expect(chat).to.be.accessible();
  });

  it("drops the failed attempts once a retry answered", async () => {
    const prompt: AgentMessage = { role: "user", content: "hi", timestamp: 0 };
    const { chat } = await chatWith([prompt, failed(1), failed(2), answer("Recovered.")]);
    expect(errors(chat)).to.have.length(0);
    expect(deepText(chat.shadowRoot as ShadowRoot)).to.contain("Recovered.");
    // A failure of a later request is its own error.
    const { chat: later } = await chatWith([prompt, failed(1), prompt, failed(1), failed(2)]);
    expect(errors(later).map((e) => deepText(e).includes("attempts failed"))).to.deep.equal([
      false,
      true,
    ]);
  });

  it("tells what to check for each kind of failure", () => {
    expect(failureKind("401 Unauthorized: invalid x-api-key")).to.equal("auth");
    expect(failureKind("Connection error.: connect ECONNREFUSED 127.0.0.1:18099")).to.equal(
      "network",
    );
    expect(failureKind("429 Too Many Requests")).to.equal("rate");
    expect(failureKind('502: {"message":"Bad gateway"}')).to.equal("server");
    expect(failureKind("something odd")).to.equal("other");
    expect(readableError('429: {"error":{"message":"Slow down"}}')).to.equal("429 · Slow down");
    expect(readableError("plain words")).to.equal("plain words");
  });

  it("puts toasts between the transcript and the composer, never over the text", async () => {
    const prompt: AgentMessage = { role: "user", content: "first line of the chat", timestamp: 0 };
    const { chat } = await chatWith([prompt, answer("An answer")]);
    const toasts = chat.shadowRoot?.querySelector("pi-toasts");
    toasts?.show("Build finished");
    toasts?.show("3 tests are flaky", "warning");
    await settle(chat);
    const log = chat.shadowRoot?.querySelector("[part=transcript]") as HTMLElement;
    const composer = chat.composer as HTMLElement;
    for (const toast of deepQueryAll(chat.shadowRoot as ShadowRoot, "[part=toast]")) {
      const box = toast.getBoundingClientRect();
      expect(box.top).to.be.at.least(log.getBoundingClientRect().bottom - 0.5);
      expect(box.bottom).to.be.at.most(composer.getBoundingClientRect().top + 0.5);
    }
  });

  it("translates the thinking level and labels the model", async () => {
    const { client, session } = fakeClient();
    session.noteState({
      model: {
        id: "gpt-5",
        name: "GPT-5",
        provider: "openai",
        api: "x",
        baseUrl: "",
        reasoning: true,
        input: ["text"],
        cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
        contextWindow: 1,
        maxTokens: 1,
      },
      thinkingLevel: "medium",
      isStreaming: false,
      isCompacting: false,
      steeringMode: "all",
      followUpMode: "all",
      sessionId: "s",
      autoCompactionEnabled: true,
      messageCount: 0,
      pendingMessageCount: 0,
    });
    const chat = await fixture<PiChat>(
      html`<pi-chat lang="zh-CN" style="height: 300px" .client=${client}></pi-chat>`,
    );
    await settle(chat);
    const bar = chat.shadowRoot?.querySelector("[part=status-bar]") as HTMLElement;
    expect(bar.querySelector(".thinking")?.textContent).to.equal("思考：中");
    expect(bar.querySelector(".model")?.textContent?.replace(/\s+/g, "")).to.equal("模型:GPT-5");
    chat.lang = "en";
    await waitUntil(() => bar.querySelector(".thinking")?.textContent === "Thinking: Medium");
  });

  it("shows the transport's connection state: Reconnecting… while it reconnects, never Connected", async () => {
    const pi = new FakePi("1");
    // A transport that reports its state, as the WebSocket transport does.
    let status = "open";
    const transport = Object.defineProperty(
      Object.assign(new EventTarget(), pi.transport),
      "state",
      {
        get: () => ({ status }),
      },
    );
    const client = new PiClient(transport, { capabilities: "1" });
    const chat = await fixture<PiChat>(
      html`<pi-chat style="height: 300px" .client=${client}></pi-chat>`,
    );
    const conn = () => chat.shadowRoot?.querySelector("[part=status-bar] .conn") as HTMLElement;
    await chat.updateComplete;
    expect(conn().textContent).to.equal("Connected");
    status = "reconnecting";
    transport.dispatchEvent(new Event("statechange"));
    await waitUntil(() => conn().textContent === "Reconnecting…");
    expect(conn().classList.contains("reconnecting")).to.equal(true);
    await expect(chat).to.be.accessible();
    status = "open";
    transport.dispatchEvent(new Event("statechange"));
    await waitUntil(() => conn().textContent === "Connected");
    await client.close();
    await waitUntil(() => conn().textContent === "Disconnected");
  });
});
