/**
 * How a message the user sent goes to pi: the mode it goes with and the call that hands it over
 * (`<pi-chat>`'s outbox holds it until then).
 * @module
 */
import type { PiClient } from "@pi-kit/client";
import type { ImageContent } from "@pi-kit/protocol";
import type { SendMode } from "../../events/pi-send.ts";
import { isExtensionCommand } from "./extension-command.ts";

/** A message the user sent that pi has not received yet. */
export interface OutgoingMessage {
  readonly text: string;
  readonly images: readonly ImageContent[];
  /** What the user asked for; the mode used is decided when it is delivered (pi may be running by then). */
  readonly mode: SendMode | undefined;
  /** The client it was sent to; `undefined` when there was none yet (it goes to the first). */
  readonly client: PiClient | undefined;
  /** The conversation it was sent in (`<pi-chat outbox-key>`), when waiting messages are kept across reloads. */
  readonly key?: string | undefined;
}

/** The mode a message goes with: a prompt when pi is idle, else what was asked (a follow-up by default). */
export function deliveryMode(requested: SendMode | undefined, running: boolean): SendMode {
  if (!running) return "prompt";
  return requested === undefined || requested === "prompt" ? "followUp" : requested;
}

/**
 * Hands one message to pi: a prompt when idle (after `beforePrompt`), else a steer or follow-up,
 * except an extension command, which goes as a prompt (pi runs it at once, even mid-run).
 * A prompt that `follows` one just sent says what to do if pi is already running it (follow up),
 * since pi starts a run after it answers. Rejects as the client does.
 */
export async function deliver(
  client: PiClient,
  message: OutgoingMessage,
  running: boolean,
  follows: boolean,
  beforePrompt: () => Promise<void>,
): Promise<void> {
  const mode = deliveryMode(message.mode, running);
  const queued = message.images.length ? { images: message.images } : {};
  if (mode !== "prompt" && (await isExtensionCommand(client, message.text))) {
    await client.prompt(message.text, queued);
    return;
  }
  if (mode === "steer") await client.steer(message.text, queued);
  else if (mode === "followUp") await client.followUp(message.text, queued);
  else {
    await beforePrompt();
    const behind = follows ? { streamingBehavior: "followUp" as const } : {};
    await client.prompt(message.text, { ...queued, ...behind });
  }
}
