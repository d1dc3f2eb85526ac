import { createReplayTransport, PiClient, SessionModel } from "@pi-kit/client";
import {
  type AssistantMessage,
  parseTranscript,
  type ToolCall,
  type ToolResultMessage,
  type Usage,
} from "@pi-kit/protocol";
import type { PiChat, PiDialog } from "../../src/index.ts";

/** Token usage of zero, for made-up answers. */
export const ZERO_USAGE: Usage = {
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 0,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

/** A made-up finished answer with `content`. */
export function answerOf(
  content: AssistantMessage["content"],
  extra: Partial<AssistantMessage> = {},
): AssistantMessage {
  return {
    role: "assistant",
    content,
    api: "x",
    provider: "p",
    model: "m",
    usage: ZERO_USAGE,
    stopReason: "stop",
    timestamp: 0,
    ...extra,
  };
}

/** A made-up tool call. */
export function toolCallOf(name: string, args: Record<string, unknown>, id = name): ToolCall {
  return { type: "toolCall", id, name, arguments: args } as ToolCall;
}

/** A made-up result of the tool call `id` (by default the call's name, as `toolCallOf` gives it). */
export function toolResultOf(
  name: string,
  text: string,
  extra: Partial<ToolResultMessage> = {},
  id = name,
): ToolResultMessage {
  return {
    role: "toolResult",
    toolCallId: id,
    toolName: name,
    content: [{ type: "text", text }],
    isError: false,
    timestamp: 0,
    ...extra,
  };
}

/** Waits for the next animation frame. */
export const nextFrame = (): Promise<void> => new Promise((r) => requestAnimationFrame(() => r()));

/** Every element matching `selector` under `root`, through shadow roots. */
export function deepQueryAll<E extends Element = HTMLElement>(
  root: ParentNode,
  selector: string,
): E[] {
  const out: E[] = [...root.querySelectorAll<E>(selector)];
  for (const el of root.querySelectorAll("*"))
    if (el.shadowRoot) out.push(...deepQueryAll<E>(el.shadowRoot, selector));
  return out;
}

/** The visible text under `root`, through shadow roots (slots ignored). */
export function deepText(root: Node): string {
  let text = "";
  const walk = (node: Node): void => {
    if (node.nodeType === Node.TEXT_NODE) text += node.textContent;
    if (node instanceof Element && node.shadowRoot) walk(node.shadowRoot);
    for (const child of node.childNodes) walk(child);
  };
  walk(root);
  return text;
}

/** Lets the chat and every nested element finish rendering. */
export async function settle(chat: PiChat): Promise<void> {
  for (let i = 0; i < 3; i++) {
    chat.flush();
    await chat.updateComplete;
    await Promise.all(
      deepQueryAll(chat.shadowRoot as ShadowRoot, "*").map(
        (el) => (el as { updateComplete?: Promise<unknown> }).updateComplete,
      ),
    );
    await nextFrame();
  }
}

/** Loads a recorded transcript of `packages/protocol/test/fixtures`. */
export async function loadFixture(version: string, name: string): Promise<string> {
  const response = await fetch(`/packages/protocol/test/fixtures/pi-${version}/${name}.jsonl`);
  if (!response.ok) throw new Error(`fixture ${version}/${name}: ${response.status}`);
  return response.text();
}

/**
 * Plays a recorded transcript into a real PiClient given to `chat`, driving the recorded commands
 * through the chat (`send`, `abort`) or the client, so the whole path is live.
 */
export async function replayInto(chat: PiChat, version: string, name: string): Promise<PiClient> {
  const entries = parseTranscript(await loadFixture(version, name));
  const transport = createReplayTransport(entries, { speed: Number.POSITIVE_INFINITY });
  const client = new PiClient(transport, {
    capabilities: version.startsWith("0.73") ? "0.73" : "1",
  });
  chat.client = client;
  await chat.updateComplete;
  for (const entry of entries) {
    if (entry.dir !== "out") continue;
    const command = JSON.parse(entry.record) as {
      type: string;
      message?: string;
      command?: string;
      value?: string;
      confirmed?: boolean;
    };
    if (command.type === "get_state") await client.getState();
    else if (command.type === "extension_ui_response") await answerDialog(chat, command);
    else if (command.type === "prompt") void chat.send(command.message ?? "");
    else if (command.type === "bash") void client.bash(command.command ?? "").catch(() => {});
    else if (command.type === "abort") void chat.abort();
    await new Promise((r) => setTimeout(r, 5));
  }
  await client.closed;
  await settle(chat);
  return client;
}

/** Answers the dialog the chat's built-in `<pi-dialog>` shows, as the recorded user did. */
async function answerDialog(
  chat: PiChat,
  response: { value?: string; confirmed?: boolean },
): Promise<void> {
  // The built-in one above the composer, or the one in the card of a tool awaiting approval.
  const showing = (): PiDialog | undefined =>
    deepQueryAll<PiDialog>(chat.shadowRoot as ShadowRoot, "pi-dialog").find(
      (d) => d.pending.length,
    );
  for (let i = 0; i < 100 && showing() === undefined; i++) {
    await new Promise((r) => setTimeout(r, 10));
    chat.flush();
    await settle(chat);
  }
  const dialog = showing() ?? chat.shadowRoot?.querySelector("pi-dialog");
  if (!dialog) throw new Error("no <pi-dialog>");
  await dialog.updateComplete;
  const reply = response.value ?? response.confirmed;
  if (reply === undefined) dialog.cancel();
  else dialog.answer(reply);
}

/** A stand-in client around a bare session model, recording what the chat asks of it. */
export function fakeClient(): { client: PiClient; session: SessionModel; calls: string[][] } {
  const session = new SessionModel({
    getState: () => Promise.reject(new Error("offline")),
    getMessages: () => Promise.reject(new Error("offline")),
  });
  const calls: string[][] = [];
  const client = {
    session,
    signal: new AbortController().signal,
    capabilities: { supports: () => false },
    // What the chat's built-in dialog and toasts use: a handler slot and an event subscription.
    ui: {
      setDialogHandler: () => () => {},
      answer: (id: string, value: unknown) => calls.push(["answer", id, String(value)]) > 0,
      cancel: (id: string) => calls.push(["cancel", id]) > 0,
    },
    on: () => () => {},
    prompt: async (text: string) => void calls.push(["prompt", text]),
    steer: async (text: string) => void calls.push(["steer", text]),
    followUp: async (text: string) => void calls.push(["followUp", text]),
    abort: async () => void calls.push(["abort"]),
    clearQueue: async () => {
      calls.push(["clearQueue"]);
      return { steering: ["queued steer"], followUp: ["queued follow-up"] };
    },
  } as unknown as PiClient;
  return { client, session, calls };
}
