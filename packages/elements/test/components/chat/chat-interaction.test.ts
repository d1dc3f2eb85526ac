import { expect, fixture, html, oneEvent } from "@open-wc/testing";
import { EMPTY_UI_STATE } from "@pi-kit/client";
import type { AgentMessage, AssistantMessage, RpcEvent } from "@pi-kit/protocol";
import "../../../src/define.ts";
import { type PiChat, PiMessage, type PiSendEvent } from "../../../src/index.ts";
import { deepQueryAll, deepText, fakeClient, nextFrame, settle } from "../../support/helpers.ts";

const usage = {
  input: 10,
  output: 5,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 15,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.0012 },
};

function assistant(text: string, extra: Partial<AssistantMessage> = {}): AssistantMessage {
  return {
    role: "assistant",
    content: [{ type: "text", text }],
    api: "x",
    provider: "p",
    model: "m",
    usage,
    stopReason: "stop",
    timestamp: 0,
    ...extra,
  };
}

function history(count: number): RpcEvent[] {
  const events: RpcEvent[] = [];
  for (let i = 0; i < count; i++) {
    const message: AgentMessage =
      i % 2 === 0
        ? { role: "user", content: `question ${i}`, timestamp: 0 }
        : assistant(`answer **${i}**`);
    events.push(
      { type: "message_start", message } as RpcEvent,
      { type: "message_end", message } as RpcEvent,
    );
  }
  return events;
}

function key(target: Element, init: KeyboardEventInit): void {
  target.dispatchEvent(
    new KeyboardEvent("keydown", { bubbles: true, composed: true, cancelable: true, ...init }),
  );
}

async function setup(): Promise<{
  chat: PiChat;
  calls: string[][];
  feed: (events: RpcEvent[]) => Promise<void>;
  session: ReturnType<typeof fakeClient>["session"];
}> {
  const { client, session, calls } = fakeClient();
  const chat = await fixture<PiChat>(
    html`<pi-chat style="height: 400px" .client=${client}></pi-chat>`,
  );
  const feed = async (events: RpcEvent[]): Promise<void> => {
    for (const event of events) session.handleEvent(event);
    await Promise.resolve();
    await settle(chat);
  };
  return { chat, calls, feed, session };
}

function textarea(chat: PiChat): HTMLTextAreaElement {
  return chat.composer?.input as HTMLTextAreaElement;
}

describe("<pi-chat> composer and keyboard", () => {
  it("sends on Enter, breaks the line on Shift+Enter, never sends during IME composition", async () => {
    const { chat, calls } = await setup();
    const input = textarea(chat);
    input.focus();
    input.value = "hello";
    key(input, { key: "Enter", shiftKey: true });
    key(input, { key: "Enter", isComposing: true });
    expect(calls).to.deep.equal([]);
    const sent = oneEvent(chat, "pi-send") as Promise<PiSendEvent>;
    key(input, { key: "Enter" });
    const event = await sent;
    expect(event.text).to.equal("hello");
    expect(event.mode).to.equal("prompt");
    await nextFrame();
    expect(calls).to.deep.equal([["prompt", "hello"]]);
    expect(input.value).to.equal("");
    expect(chat.shadowRoot?.activeElement).to.equal(chat.composer);
  });

  it("queues follow-ups and steers while running, shows the queue, restores it, and stops on Escape", async () => {
    const { chat, calls, feed } = await setup();
    await feed([{ type: "agent_start" } as RpcEvent]);
    const input = textarea(chat);
    input.value = "later";
    key(input, { key: "Enter" });
    input.value = "now";
    key(input, { key: "Enter", ctrlKey: true });
    await nextFrame();
    expect(calls).to.deep.equal([
      ["followUp", "later"],
      ["steer", "now"],
    ]);
    await feed([{ type: "queue_update", steering: ["now"], followUp: ["later"] } as RpcEvent]);
    const queue = chat.shadowRoot?.querySelector("[part=queue]") as HTMLElement;
    expect(queue.textContent).to.contain("now").and.contain("later");
    key(input, { key: "ArrowUp", altKey: true });
    await nextFrame();
    expect(input.value).to.equal("queued steer\n\nqueued follow-up");
    key(input, { key: "Escape" });
    await nextFrame();
    expect(calls.at(-1)).to.deep.equal(["abort"]);
    const stop = chat.composer?.shadowRoot?.querySelector(
      "[part=stop-button]",
    ) as HTMLButtonElement;
    stop.click();
    await nextFrame();
    expect(calls.filter((c) => c[0] === "abort")).to.have.length(2);
  });

  it("lets the page take over sending by cancelling pi-send", async () => {
    const { chat, calls } = await setup();
    chat.addEventListener("pi-send", (e) => e.preventDefault());
    await chat.send("mine");
    expect(calls).to.deep.equal([]);
  });

  it("attaches images and sends them as images", async () => {
    const { chat } = await setup();
    const png = Uint8Array.from(
      atob(
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
      ),
      (c) => c.charCodeAt(0),
    );
    await chat.composer?.addImages([
      new File([png], "dot.png", { type: "image/png" }),
      new File(["x"], "a.txt", { type: "text/plain" }),
    ]);
    await chat.composer?.updateComplete;
    expect(chat.composer?.shadowRoot?.querySelectorAll(".attachments img")).to.have.length(1);
    await expect(chat.composer as Element).to.be.accessible();
    const sent = oneEvent(chat, "pi-send") as Promise<PiSendEvent>;
    chat.composer?.submit();
    const event = await sent;
    expect(event.images).to.have.length(1);
    expect(event.images[0]?.mimeType).to.equal("image/png");
    expect(event.images[0]?.data).to.match(/^iVBOR/);
  });

  it("fills the composer from set_editor_text and shows statuses, widgets and the title", async () => {
    const { chat, session } = await setup();
    session.setUi({
      ...EMPTY_UI_STATE,
      editorText: "from extension",
      title: "My title",
      statuses: new Map([["k", "indexing"]]),
      widgets: new Map([
        ["a", { lines: ["above line"], placement: "aboveEditor" as const }],
        ["b", { lines: ["below line"], placement: "belowEditor" as const }],
      ]),
    });
    await Promise.resolve();
    await settle(chat);
    expect(textarea(chat).value).to.equal("from extension");
    const text = deepText(chat.shadowRoot as ShadowRoot);
    expect(text)
      .to.contain("My title")
      .and.contain("indexing")
      .and.contain("above line")
      .and.contain("below line");
    await expect(chat).to.be.accessible();
  });

  it("announces responding and done in a polite live region, not tokens", async () => {
    const { chat, feed } = await setup();
    const live = chat.shadowRoot?.querySelector(".sr-only[aria-live=polite]") as HTMLElement;
    await feed([
      { type: "agent_start" } as RpcEvent,
      { type: "message_start", message: assistant("") } as RpcEvent,
    ]);
    expect(live.textContent).to.contain("responding");
    await feed([
      {
        type: "message_update",
        assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: "token" },
      } as unknown as RpcEvent,
    ]);
    expect(live.textContent).to.not.contain("token");
    await feed([
      { type: "message_end", message: assistant("token") } as RpcEvent,
      { type: "agent_end", messages: [] } as unknown as RpcEvent,
    ]);
    chat.client?.session.runSettled();
    await Promise.resolve();
    await settle(chat);
    expect(live.textContent).to.contain("done");
  });

  it("shows retrying, compacting, tokens and cost in the status bar", async () => {
    const { chat, feed } = await setup();
    await feed([
      ...history(2),
      {
        type: "auto_retry_start",
        attempt: 1,
        maxAttempts: 3,
        delayMs: 2000,
        errorMessage: "x",
      } as RpcEvent,
      { type: "compaction_start", reason: "manual" } as RpcEvent,
    ]);
    const bar = chat.shadowRoot?.querySelector("[part=status-bar]")?.textContent ?? "";
    expect(bar).to.contain("attempt 1 of 3").and.contain("2 s").and.contain("Compacting");
    expect(bar).to.contain("10 in").and.contain("$0.0012");
  });

  it("speaks Simplified Chinese from the nearest lang and takes string overrides", async () => {
    const wrapper = await fixture(
      html`<div lang="zh-CN"><pi-chat></pi-chat><pi-chat lang="en" .strings=${{ send: "Go" }}></pi-chat></div>`,
    );
    const [zh, en] = [...wrapper.querySelectorAll("pi-chat")] as PiChat[];
    await zh?.updateComplete;
    await en?.updateComplete;
    await zh?.composer?.updateComplete;
    await en?.composer?.updateComplete;
    expect(
      zh?.composer?.shadowRoot?.querySelector("[part=send-button]")?.textContent?.trim(),
    ).to.equal("发送");
    expect(
      en?.composer?.shadowRoot?.querySelector("[part=send-button]")?.textContent?.trim(),
    ).to.equal("Go");
  });
});

describe("<pi-chat> rendering cost", () => {
  it("does not re-render finished messages while streaming and renders at most once per frame", async () => {
    const { chat, feed, session } = await setup();
    await feed(history(200));
    const renders = new Map<PiMessage, number>();
    const proto = PiMessage.prototype as unknown as { render(this: PiMessage): unknown };
    const original = proto.render;
    proto.render = function (this: PiMessage) {
      renders.set(this, (renders.get(this) ?? 0) + 1);
      return original.call(this);
    };
    let chatRenders = 0;
    const chatRender = (Object.getPrototypeOf(chat) as { render(this: PiChat): unknown }).render;
    Object.defineProperty(chat, "render", {
      value: function (this: PiChat) {
        chatRenders++;
        return chatRender.call(this);
      },
      configurable: true,
    });
    try {
      await feed([
        { type: "agent_start" } as RpcEvent,
        { type: "message_start", message: assistant("") } as RpcEvent,
      ]);
      renders.clear();
      chatRenders = 0;
      let frames = 0;
      for (let i = 0; i < 60; i++) {
        for (let j = 0; j < 5; j++)
          session.handleEvent({
            type: "message_update",
            assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: `w${i}.${j} ` },
          } as unknown as RpcEvent);
        await nextFrame();
        frames++;
      }
      await settle(chat);
      const streaming = deepQueryAll<PiMessage>(
        chat.shadowRoot as ShadowRoot,
        "pi-message[streaming]",
      );
      expect(streaming).to.have.length(1);
      const others = [...renders.keys()].filter((m) => !m.streaming);
      expect(others, "finished messages re-rendered").to.have.length(0);
      expect(chatRenders).to.be.at.most(frames + 4);
      expect(deepText(streaming[0] as Element)).to.contain("w59.4");
    } finally {
      proto.render = original;
    }
  });

  it("windows long histories and reveals earlier messages on request", async () => {
    const { chat, feed } = await setup();
    chat.pageSize = 50;
    await feed(history(2000));
    const list = chat.shadowRoot?.querySelector("pi-message-list") as HTMLElement;
    expect(list.shadowRoot?.querySelectorAll("pi-message").length).to.equal(50);
    const earlier = list.shadowRoot?.querySelector("[part=show-earlier]") as HTMLButtonElement;
    earlier.focus();
    earlier.click();
    await settle(chat);
    expect(list.shadowRoot?.querySelectorAll("pi-message").length).to.equal(100);
  });

  it("follows the bottom only while the reader is near it, with a jump button otherwise", async () => {
    const { chat, feed } = await setup();
    await feed(history(60));
    const log = chat.shadowRoot?.querySelector("[role=log]") as HTMLElement;
    const atBottom = (): boolean => log.scrollHeight - log.scrollTop - log.clientHeight < 4;
    expect(atBottom()).to.equal(true);
    log.scrollTop = 0;
    log.dispatchEvent(new Event("scroll"));
    await settle(chat);
    const jump = chat.shadowRoot?.querySelector("[part=jump-button]") as HTMLButtonElement;
    expect(jump).to.not.equal(null);
    await feed(history(4));
    expect(log.scrollTop).to.equal(0);
    jump.click();
    await settle(chat);
    expect(atBottom()).to.equal(true);
    expect(chat.shadowRoot?.querySelector("[part=jump-button]")).to.equal(null);
    // A follow-up sent while pi answers re-pins (a prompt lands near the top: chat-reading).
    await feed([{ type: "agent_start" } as RpcEvent]);
    log.scrollTop = 0;
    log.dispatchEvent(new Event("scroll"));
    await settle(chat);
    await chat.send("re-pin");
    await settle(chat);
    expect(atBottom()).to.equal(true);
  });
});

describe("theming", () => {
  it("follows the theme attribute", async () => {
    const { chat } = await setup();
    chat.setAttribute("theme", "dark");
    const dark = getComputedStyle(chat).backgroundColor;
    chat.setAttribute("theme", "light");
    const light = getComputedStyle(chat).backgroundColor;
    expect(dark).to.equal("rgb(22, 24, 29)");
    expect(light).to.equal("rgb(255, 255, 255)");
    chat.style.setProperty("--pi-color-bg", "rgb(1, 2, 3)");
    expect(getComputedStyle(chat).backgroundColor).to.equal("rgb(1, 2, 3)");
    chat.setAttribute("theme", "dark");
    await expect(chat).to.be.accessible();
  });
});
