import { expect, fixture, html } from "@open-wc/testing";
import type { PiClient } from "@pi-kit/client";
import type { AgentMessage, AssistantMessage, RpcEvent } from "@pi-kit/protocol";
import "../../../src/define.ts";
import { questionOf, resend } from "../../../src/components/chat/message-actions.ts";
import type { MessageAction } from "../../../src/components/chat/pi-message.ts";
import {
  loadMarkdown,
  type PiChat,
  type PiCopyEvent,
  type PiEditEvent,
  type PiMarkdown,
  type PiMessage,
  type PiRetryEvent,
} from "../../../src/index.ts";
import { answerOf, deepQueryAll, fakeClient, settle } from "../../support/helpers.ts";

before(() => loadMarkdown());

const answer = (content: AssistantMessage["content"], timestamp = 0): AssistantMessage =>
  answerOf(content, { timestamp });
const user = (text: string, timestamp = 0): AgentMessage => ({
  role: "user",
  content: text,
  timestamp,
});

async function message(
  m: AgentMessage,
  props: { act?: MessageAction; last?: boolean; streaming?: boolean } = {},
): Promise<{ el: PiMessage; root: ShadowRoot }> {
  const el = await fixture<PiMessage>(
    html`<pi-message .message=${m} .act=${props.act} ?last=${props.last ?? false} ?streaming=${props.streaming ?? false}></pi-message>`,
  );
  return { el, root: el.shadowRoot as ShadowRoot };
}

const buttons = (root: ShadowRoot): string[] =>
  [...root.querySelectorAll(".actions button")].map((b) => b.textContent?.trim() ?? "");

describe("message actions", () => {
  it("copies an answer as markdown through a cancelable pi-copy", async () => {
    const { el, root } = await message(
      answer([
        { type: "text", text: "**One**" },
        { type: "toolCall", id: "t", name: "bash", arguments: { command: "ls" } },
        { type: "text", text: "Two" },
      ]),
    );
    const copies: PiCopyEvent[] = [];
    el.addEventListener("pi-copy", (e) => {
      copies.push(e);
      e.preventDefault();
    });
    const copy = root.querySelector(".actions button") as HTMLButtonElement;
    expect(copy.textContent?.trim()).to.equal("Copy message");
    copy.click();
    for (let i = 0; i < 100 && copies.length === 0; i++)
      await new Promise((r) => setTimeout(r, 10));
    expect(copies.map((e) => [e.text, e.kind])).to.deep.equal([["**One**\n\nTwo", "message"]]);
  });

  it("shows when a message was sent, in full on hover", async () => {
    const at = new Date(2026, 10, 30, 14, 5).getTime();
    const { root } = await message(user("hi", at));
    const time = root.querySelector("time");
    expect(time?.getAttribute("datetime")).to.equal(new Date(at).toISOString());
    const clock = new Intl.DateTimeFormat("en", { hour: "2-digit", minute: "2-digit" });
    expect(time?.textContent).to.contain(clock.format(at));
    expect(time?.getAttribute("title")).to.contain("2026");
  });

  it("offers Edit and Retry only with an act callback, Retry only on the last answer", async () => {
    const act: MessageAction = () => {};
    expect(buttons((await message(user("hi"))).root)).to.deep.equal(["Copy message"]);
    expect(buttons((await message(user("hi"), { act })).root)).to.deep.equal([
      "Copy message",
      "Edit",
    ]);
    const text = answer([{ type: "text", text: "a" }]);
    expect(buttons((await message(text, { act })).root)).to.deep.equal(["Copy message"]);
    expect(buttons((await message(text, { act, last: true })).root)).to.deep.equal([
      "Copy message",
      "Try again",
    ]);
  });

  it("edits a user message in place: Escape cancels, Ctrl+Enter sends through pi-edit", async () => {
    const asked: [string, string | undefined][] = [];
    const original = user("first try");
    const { el, root } = await message(original, {
      act: (_, action, text) => asked.push([action, text]),
    });
    const edit = () => (root.querySelectorAll(".actions button")[1] as HTMLButtonElement).click();
    edit();
    await el.updateComplete;
    const area = root.querySelector("textarea") as HTMLTextAreaElement;
    expect(area.value).to.equal("first try");
    area.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
    await el.updateComplete;
    expect(root.querySelector("textarea")).to.equal(null);
    edit();
    await el.updateComplete;
    const again = root.querySelector("textarea") as HTMLTextAreaElement;
    again.value = "second try";
    const events: PiEditEvent[] = [];
    el.addEventListener("pi-edit", (e) => events.push(e));
    again.dispatchEvent(
      new KeyboardEvent("keydown", { key: "Enter", ctrlKey: true, bubbles: true }),
    );
    await el.updateComplete;
    expect(events.map((e) => [e.message, e.text])).to.deep.equal([[original, "second try"]]);
    expect(asked).to.deep.equal([["edit", "second try"]]);
  });

  it("Try again first says the answer is kept as another version, then retries through pi-retry, which a page can cancel", async () => {
    const asked: string[] = [];
    const last = answer([{ type: "text", text: "a" }]);
    const { el, root } = await message(last, {
      act: (_, action) => asked.push(action),
      last: true,
    });
    const seen: PiRetryEvent[] = [];
    el.addEventListener("pi-retry", (e) => {
      seen.push(e);
      if (seen.length === 2) e.preventDefault();
    });
    const retry = async (): Promise<HTMLElement> => {
      const button = root.querySelectorAll(".actions button")[1] as HTMLButtonElement;
      expect(button.title).to.match(/kept as another version/);
      button.click();
      await el.updateComplete;
      return root.querySelector("[part=confirm]") as HTMLElement;
    };
    // Cancel asks for nothing.
    let question = await retry();
    expect(question.textContent).to.match(/This answer is kept as another version/);
    expect(seen).to.have.length(0, "nothing happens before the user goes ahead");
    (question.querySelector("[part=cancel-button]") as HTMLButtonElement).click();
    await el.updateComplete;
    expect(root.querySelector("[part=confirm]")).to.equal(null);
    for (let i = 0; i < 2; i++) {
      question = await retry();
      const go = question.querySelector("[part=confirm-button]") as HTMLButtonElement;
      expect(root.activeElement).to.equal(go, "the focus is on going ahead");
      expect(go.textContent).to.equal("Try again");
      go.click();
      await el.updateComplete;
    }
    expect(seen.map((e) => e.message)).to.deep.equal([last, last]);
    expect(asked).to.deep.equal(["retry"]);
  });
});

describe("streaming state", () => {
  it('says "Thinking…" before the first token, then shows a caret after the text', async () => {
    const { el, root } = await message(answer([]), { streaming: true });
    expect(root.querySelector("[part=pending]")?.textContent).to.equal("Thinking…");
    expect(root.querySelector(".actions")).to.equal(null);
    el.message = answer([{ type: "text", text: "Hello" }]);
    await el.updateComplete;
    expect(root.querySelector("[part=pending]")).to.equal(null);
    const md = root.querySelector("pi-markdown") as PiMarkdown;
    await md.updateComplete;
    const p = md.shadowRoot?.querySelector("p") as HTMLElement;
    expect(getComputedStyle(p, "::after").content).to.equal('"▍"');
    el.streaming = false;
    await el.updateComplete;
    await md.updateComplete;
    expect(getComputedStyle(p, "::after").content).to.equal("none");
  });
});

/** A client that lists fork entries and records fork and prompt. */
function forkClient(
  forkable: { entryId: string; text: string }[],
  cancelled = false,
): { client: PiClient; calls: unknown[][] } {
  const calls: unknown[][] = [];
  const client = {
    getForkMessages: async () => forkable,
    fork: async (entryId: string) => {
      calls.push(["fork", entryId]);
      return { text: "", cancelled };
    },
    prompt: async (text: string, options: unknown) => void calls.push(["prompt", text, options]),
  } as unknown as PiClient;
  return { client, calls };
}

describe("resending from a message (fork, then prompt)", () => {
  // Compaction dropped "old" from the transcript; "same" was asked twice.
  const forkable = [
    { entryId: "e0", text: "old" },
    { entryId: "e1", text: "same" },
    { entryId: "e2", text: "other" },
    { entryId: "e3", text: "same" },
  ];
  const image = { type: "image" as const, data: "AA", mimeType: "image/png" };
  const transcript: AgentMessage[] = [
    user("same"),
    answer([{ type: "text", text: "1" }]),
    user("other"),
    answer([{ type: "text", text: "2" }]),
    { role: "user", content: [{ type: "text", text: "same" }, image], timestamp: 0 },
    answer([{ type: "text", text: "3" }]),
  ];

  it("forks at the matching entry, counted from the end, and sends the text with its images", async () => {
    const { client, calls } = forkClient(forkable);
    await resend(client, transcript, questionOf(transcript, 5));
    expect(calls).to.deep.equal([
      ["fork", "e3"],
      ["prompt", "same", { images: [image] }],
    ]);
    const edit = forkClient(forkable);
    await resend(edit.client, transcript, 0, "changed");
    expect(edit.calls).to.deep.equal([
      ["fork", "e1"],
      ["prompt", "changed", {}],
    ]);
  });

  it("stops quietly when an extension cancels the fork, and fails when pi lists no such entry", async () => {
    const cancelled = forkClient(forkable, true);
    await resend(cancelled.client, transcript, 2);
    expect(cancelled.calls).to.deep.equal([["fork", "e2"]]);
    let error: unknown;
    await resend(forkClient([]).client, transcript, 2).catch((e: unknown) => {
      error = e;
    });
    expect(String(error)).to.contain("no entry to fork from");
  });

  it("retries the last answer from <pi-chat> through the client", async () => {
    const { client, session, calls } = fakeClient();
    Object.assign(client, {
      getForkMessages: async () => [{ entryId: "u1", text: "question" }],
      fork: async (entryId: string) => {
        calls.push(["fork", entryId]);
        return { text: "question", cancelled: false };
      },
    });
    const chat = await fixture<PiChat>(html`<pi-chat style="height: 500px"></pi-chat>`);
    chat.client = client;
    for (const m of [user("question", 1), answer([{ type: "text", text: "answer" }], 2)]) {
      session.handleEvent({ type: "message_start", message: m } as unknown as RpcEvent);
      session.handleEvent({ type: "message_end", message: m } as unknown as RpcEvent);
    }
    await settle(chat);
    const last = deepQueryAll<PiMessage>(chat.shadowRoot as ShadowRoot, "pi-message").at(
      -1,
    ) as PiMessage;
    const retry = [...(last.shadowRoot?.querySelectorAll(".actions button") ?? [])].find(
      (b) => b.textContent?.trim() === "Try again",
    ) as HTMLButtonElement;
    retry.click();
    await last.updateComplete;
    // Try again asks first; going ahead forks and sends.
    (last.shadowRoot as ShadowRoot)
      .querySelector<HTMLButtonElement>("[part=confirm-button]")
      ?.click();
    for (let i = 0; i < 100 && calls.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
    expect(calls).to.deep.equal([
      ["fork", "u1"],
      ["prompt", "question"],
    ]);
  });
});

describe("<pi-chat> image-hosts", () => {
  it("hands its image allowlist to the answers' markdown", async () => {
    const { client, session } = fakeClient();
    const chat = await fixture<PiChat>(
      html`<pi-chat style="height: 500px" image-hosts="img.example.com"></pi-chat>`,
    );
    chat.client = client;
    const m = answer([
      { type: "text", text: "![a](https://img.example.com/a.png) ![b](https://x.example/b.png)" },
    ]);
    session.handleEvent({ type: "message_start", message: m } as unknown as RpcEvent);
    session.handleEvent({ type: "message_end", message: m } as unknown as RpcEvent);
    await settle(chat);
    const md = deepQueryAll<PiMarkdown>(chat.shadowRoot as ShadowRoot, "pi-markdown")[0];
    let slots: HTMLElement[] = [];
    for (let i = 0; i < 100; i++) {
      slots = [...(md?.shadowRoot?.querySelectorAll<HTMLElement>("[data-src]") ?? [])];
      if (slots.every((s) => s.dataset.state)) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(slots.map((s) => s.dataset.state)).to.deep.equal(["loaded", "blocked"]);
  });
});
