/** Page side of chat.bench.ts: a <pi-chat> on a bare session model, fed synthetic events. */
import { SessionModel } from "@pi-kit/client";
import type { AgentMessage, RpcEvent } from "@pi-kit/protocol";
import "@pi-kit/elements/define";
import type { PiChat } from "@pi-kit/elements";
import { assistant } from "./assistant-message.ts";

const frame = (): Promise<void> => new Promise((r) => requestAnimationFrame(() => r()));
const WORDS =
  "the quick brown fox jumps over a lazy dog while `code` and **bold** words stream by".split(" ");

function delta(i: number): RpcEvent {
  let text = `${WORDS[i % WORDS.length]} `;
  if (i % 40 === 39) text += "\n\n";
  if (i % 200 === 120) text += "\n\n```ts\nconst x = 1;\n";
  if (i % 200 === 160) text += "\n```\n\n";
  return {
    type: "message_update",
    assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: text },
  } as unknown as RpcEvent;
}

async function makeChat(history: number): Promise<{ chat: PiChat; session: SessionModel }> {
  document.body.replaceChildren();
  const session = new SessionModel({
    getState: () => Promise.reject(new Error()),
    getMessages: () => Promise.reject(new Error()),
  });
  const chat = document.createElement("pi-chat");
  chat.style.height = "800px";
  chat.session = session;
  document.body.append(chat);
  for (let i = 0; i < history; i++) {
    const message: AgentMessage =
      i % 2 === 0
        ? { role: "user", content: `question ${i}`, timestamp: 0 }
        : assistant(`Answer ${i} with *markdown*.\n\n- a\n- b\n\n\`\`\`js\nlet v = ${i};\n\`\`\``);
    session.handleEvent({ type: "message_start", message } as RpcEvent);
    session.handleEvent({ type: "message_end", message } as RpcEvent);
  }
  session.handleEvent({ type: "agent_start" } as RpcEvent);
  session.handleEvent({ type: "message_start", message: assistant("") } as RpcEvent);
  await frame();
  await frame();
  return { chat, session };
}

/**
 * Median main-thread ms for one delta, including the render it causes. `performance.now()` is
 * coarsened to 0.1 ms in a page, about the cost of one delta, so each sample times a batch of
 * `batch` deltas (each applied and rendered on its own) and divides; a frame separates batches.
 */
async function perDelta(history: number, deltas: number, batch: number): Promise<number> {
  const { chat, session } = await makeChat(history);
  const samples: number[] = [];
  for (let i = 0; i < deltas; ) {
    const start = performance.now();
    for (const end = i + batch; i < end; i++) {
      session.handleEvent(delta(i));
      await Promise.resolve();
      chat.flush();
      await chat.updateComplete;
      const streaming = chat.shadowRoot?.querySelector("pi-message[streaming]") as
        | (HTMLElement & { updateComplete: Promise<unknown> })
        | null;
      await streaming?.updateComplete;
      const md = streaming?.shadowRoot?.querySelector("pi-markdown") as
        | (HTMLElement & { updateComplete: Promise<unknown> })
        | null;
      await md?.updateComplete;
    }
    samples.push((performance.now() - start) / batch);
    await frame();
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)] as number;
}

/** Feeds `rate` deltas per second for `seconds`, through the normal rAF path; returns long tasks. */
async function sustained(
  rate: number,
  seconds: number,
): Promise<{ delivered: number; longTasks: number[]; frames: number }> {
  const { session } = await makeChat(200);
  const longTasks: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) longTasks.push(entry.duration);
  });
  observer.observe({ type: "longtask", buffered: false });
  let delivered = 0;
  let frames = 0;
  const start = performance.now();
  await new Promise<void>((resolve) => {
    const tick = (): void => {
      const due = Math.floor(((performance.now() - start) / 1000) * rate);
      while (delivered < due) session.handleEvent(delta(delivered++));
      if (performance.now() - start < seconds * 1000) setTimeout(tick, 4);
      else resolve();
    };
    tick();
    const count = (): void => {
      frames++;
      if (performance.now() - start < seconds * 1000) requestAnimationFrame(count);
    };
    requestAnimationFrame(count);
  });
  await frame();
  await new Promise((r) => setTimeout(r, 100));
  observer.disconnect();
  return { delivered, longTasks, frames };
}

Object.assign(window, { perDelta, sustained, benchReady: true });
