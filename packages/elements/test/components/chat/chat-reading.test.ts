// Reading that is not disturbed: what is on screen is measured (getBoundingClientRect) before
// and after each change, and must not move.
import { expect, fixture, html } from "@open-wc/testing";
import type { AgentMessage, RpcEvent } from "@pi-kit/protocol";
import "../../../src/define.ts";
import { loadMarkdown, type PiChat, type PiMessage } from "../../../src/index.ts";
import { answerOf, deepQueryAll, fakeClient, nextFrame, settle } from "../../support/helpers.ts";

function turns(count: number, from = 0): RpcEvent[] {
  const events: RpcEvent[] = [];
  for (let i = from; i < from + count; i++) {
    const message: AgentMessage =
      i % 2 === 0
        ? { role: "user", content: `question ${i}`, timestamp: 0 }
        : answerOf([{ type: "text", text: `answer ${i}\n\nwith a second paragraph` }]);
    events.push(
      { type: "message_start", message } as RpcEvent,
      { type: "message_end", message } as RpcEvent,
    );
  }
  return events;
}

const delta = (text: string): RpcEvent =>
  ({
    type: "message_update",
    assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: text },
  }) as unknown as RpcEvent;

async function setup(pageSize = 60) {
  const { client, session } = fakeClient();
  const chat = await fixture<PiChat>(
    html`<pi-chat style="height: 500px" page-size=${pageSize} .client=${client}></pi-chat>`,
  );
  const feed = async (events: RpcEvent[]): Promise<void> => {
    for (const event of events) session.handleEvent(event);
    await settle(chat);
  };
  const log = chat.shadowRoot?.querySelector("[role=log]") as HTMLElement;
  const messages = (): PiMessage[] =>
    [
      ...(chat.shadowRoot
        ?.querySelector("pi-message-list")
        ?.shadowRoot?.querySelectorAll<PiMessage>("pi-message") ?? []),
    ] as PiMessage[];
  // A message whose top is in view: the reader's eyes are on it.
  const inView = (): PiMessage => {
    const box = log.getBoundingClientRect();
    const found = messages().find((m) => {
      const top = m.getBoundingClientRect().top;
      return top > box.top + 40 && top < box.bottom - 40;
    });
    if (found === undefined) throw new Error("no message in view");
    return found;
  };
  const scrollUpTo = async (top: number): Promise<void> => {
    log.scrollTop = top;
    log.dispatchEvent(new Event("scroll"));
    await settle(chat);
  };
  return { chat, session, feed, log, messages, inView, scrollUpTo };
}

const jumpButton = (chat: PiChat): HTMLButtonElement | null =>
  chat.shadowRoot?.querySelector<HTMLButtonElement>("[part=jump-button]") ?? null;

describe("<pi-chat> reading that is not disturbed", () => {
  // Measured once the messages are rendered as markdown, as a reader sees them.
  before(() => loadMarkdown());

  it("moves nothing on screen (0 px) while a stream grows and ends and the reader has scrolled up", async () => {
    const { chat, feed, log, inView, scrollUpTo } = await setup();
    await feed(turns(30));
    // Scrolled up a little: the end of the transcript, where the stream grows, is in view too.
    await scrollUpTo(log.scrollHeight - log.clientHeight - 150);
    const anchor = inView();
    const before = anchor.getBoundingClientRect().top;
    const moves: number[] = [];
    const measure = (): void => {
      moves.push(Math.abs(anchor.getBoundingClientRect().top - before));
    };
    await feed([
      { type: "agent_start" } as RpcEvent,
      { type: "message_start", message: answerOf([]) } as RpcEvent,
    ]);
    measure();
    let text = "";
    for (let i = 0; i < 40; i++) {
      text += `word ${i} `.repeat(6) + (i % 5 === 4 ? "\n\n" : "");
      await feed([delta(`word ${i} `.repeat(6) + (i % 5 === 4 ? "\n\n" : ""))]);
      measure();
    }
    const final = answerOf([{ type: "text", text }]);
    await feed([
      { type: "message_end", message: final } as RpcEvent,
      { type: "agent_end", messages: [final] } as RpcEvent,
    ]);
    measure();
    expect(Math.max(...moves), "largest move of what the reader looks at (px)").to.equal(0);
    expect(jumpButton(chat)?.textContent).to.contain("1 new");
  });

  it("lands a new user turn in the top fifth of the view, the answer growing below it without moving it", async () => {
    const { chat, feed, log, messages } = await setup();
    await feed(turns(30));
    await chat.send("a new question");
    await feed(turns(1, 30));
    const turn = messages().at(-1) as PiMessage;
    expect(turn.message?.role).to.equal("user");
    const box = log.getBoundingClientRect();
    const landed = turn.getBoundingClientRect().top - box.top;
    expect(landed, "px from the top of the view").to.be.within(0, box.height / 5);
    // Nothing below it yet (only the space it landed with): no jump button.
    expect(jumpButton(chat)?.textContent ?? "none").to.equal("none");
    await feed([
      { type: "agent_start" } as RpcEvent,
      { type: "message_start", message: answerOf([]) } as RpcEvent,
    ]);
    const moves: number[] = [];
    for (let i = 0; i < 60; i++) {
      await feed([delta(`line ${i} of the answer\n\n`)]);
      moves.push(Math.abs(turn.getBoundingClientRect().top - box.top - landed));
    }
    expect(Math.max(...moves), "largest move of the new turn (px)").to.equal(0);
    // The answer grew past the view: the reader is offered the rest.
    expect(jumpButton(chat)?.textContent).to.contain("Jump to latest");
  });

  it("keeps the reading position (0 px) when earlier messages load above", async () => {
    const { chat, feed, log, inView, scrollUpTo } = await setup(20);
    await feed(turns(80));
    await scrollUpTo(0);
    const earlier = chat.shadowRoot
      ?.querySelector("pi-message-list")
      ?.shadowRoot?.querySelector<HTMLButtonElement>("[part=show-earlier]");
    expect(earlier?.textContent).to.contain("earlier");
    // At the very top, where the reader asks for more (the browser's own scroll anchoring is off there).
    const anchor = inView();
    const before = anchor.getBoundingClientRect().top;
    earlier?.click();
    await settle(chat);
    await nextFrame();
    expect(
      deepQueryAll(chat.shadowRoot as ShadowRoot, "pi-message").length,
      "earlier messages loaded",
    ).to.be.greaterThan(20);
    // Within the pixel the scroll offset snaps to: the inserted height is fractional.
    expect(Math.abs(anchor.getBoundingClientRect().top - before), "move (px)").to.be.below(1);
    expect(log.scrollTop).to.be.greaterThan(0);
  });

  it("says on the jump button how many messages arrived while the reader was away", async () => {
    const { chat, feed, log, scrollUpTo } = await setup();
    await feed(turns(30));
    await scrollUpTo(0);
    expect(jumpButton(chat)?.textContent?.trim()).to.equal("↓ Jump to latest");
    await feed(turns(3, 30));
    expect(log.scrollTop).to.equal(0);
    expect(jumpButton(chat)?.textContent?.trim()).to.equal("↓ 3 new · Jump to latest");
    jumpButton(chat)?.click();
    await settle(chat);
    expect(jumpButton(chat)?.textContent ?? "none").to.equal("none");
    expect(log.scrollHeight - log.scrollTop - log.clientHeight).to.be.below(2);
  });
});
