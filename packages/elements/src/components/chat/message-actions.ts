/**
 * Sending a user message again from its place in the conversation (retry, edit), loaded when the
 * user first asks for it. pi has no "regenerate": `fork` starts a new branch just before a user
 * message (the old branch stays in the session tree), then the text is prompted. The client
 * reloads the transcript when the fork changes the session (`session_changed`).
 */
import type { PiClient } from "@pi-kit/client";
import type { AgentMessage, ImageContent, UserMessage } from "@pi-kit/protocol";
import { textOf } from "../../internal/i18n/format.ts";

function isUser(message: AgentMessage | undefined): message is UserMessage {
  return message?.role === "user";
}

/**
 * The entry to fork at for `messages[index]`. pi lists the user messages it can fork from
 * (`get_fork_messages`), oldest first and all with text; the transcript may have lost earlier
 * ones to compaction, so they are matched from the end, and checked by text.
 */
async function entryOf(client: PiClient, messages: readonly AgentMessage[], index: number) {
  const target = messages[index];
  if (!isUser(target)) throw new Error("only a user message can be sent again");
  const text = textOf(target.content);
  let after = 0;
  for (let i = index + 1; i < messages.length; i++) {
    const message = messages[i];
    if (isUser(message) && textOf(message.content)) after++;
  }
  const forkable = await client.getForkMessages();
  let entry = forkable[forkable.length - 1 - after];
  for (let i = forkable.length - 1; entry?.text !== text && i >= 0; i--) entry = forkable[i];
  if (entry === undefined || entry.text !== text)
    throw new Error("pi lists no entry to fork from for this message");
  return { entryId: entry.entryId, message: target };
}

/**
 * Forks just before the user message `messages[index]` and sends `text` (its own text when not
 * given) with the message's images. Resolves once pi accepted the prompt; an extension that
 * cancels the fork stops it quietly.
 */
export async function resend(
  client: PiClient,
  messages: readonly AgentMessage[],
  index: number,
  text?: string,
): Promise<void> {
  const { entryId, message } = await entryOf(client, messages, index);
  const { cancelled } = await client.fork(entryId);
  if (cancelled) return;
  const images =
    typeof message.content === "string"
      ? []
      : message.content.filter((b): b is ImageContent => b.type === "image");
  await client.prompt(text ?? textOf(message.content), images.length ? { images } : {});
}

/** The index of the user message an answer replies to (the last one before it). */
export function questionOf(messages: readonly AgentMessage[], answer: number): number {
  for (let i = answer - 1; i >= 0; i--) if (isUser(messages[i])) return i;
  return -1;
}
