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

interface Entry extends OutgoingMessage {
  readonly settle: () => void;
}

/**
 * The messages `<pi-chat>` holds for pi: everything the user sends goes through it, so what is
 * typed before the chat is connected (no client yet, connecting, reconnecting) waits here in
 * order, shown as pending, instead of being dropped. A message with others behind it is handed
 * to pi and answered before the next goes, and the next is told it `follows` one (pi may be
 * starting the run the first asked for: it must become a follow-up, not a second prompt); the
 * last one goes without waiting, so a message typed while a command's dialog holds its prompt
 * open is not held back. Messages that cannot be sent at all are taken back for the composer.
 */
export class Outbox {
  readonly #changed: () => void;
  #entries: Entry[] = [];
  #flushing = false;
  #inFlight = 0;

  /** `changed` is called whenever what the outbox shows changes. */
  constructor(changed: () => void) {
    this.#changed = changed;
  }

  /** The messages waiting, oldest first. */
  get waiting(): readonly OutgoingMessage[] {
    return this.#entries;
  }

  /** True while a message handed to pi has not been answered yet. */
  get delivering(): boolean {
    return this.#inFlight > 0;
  }

  /** Adds a message; resolves once it was delivered (or failed) or taken back. */
  add(message: OutgoingMessage): Promise<void> {
    return new Promise((settle) => {
      this.#entries.push({ ...message, settle });
      this.#changed();
    });
  }

  /** Puts messages kept from before a reload ahead of those sent since. */
  restore(messages: readonly OutgoingMessage[]): void {
    if (messages.length === 0) return;
    this.#entries.unshift(...messages.map((m) => ({ ...m, settle() {} })));
    this.#changed();
  }

  /**
   * Delivers the waiting messages in order while `ready()` says pi can take them; `deliver`
   * handles its own failures. Does nothing while a message with others behind it is being
   * answered (that flush goes on with the rest).
   */
  async flush(
    ready: () => boolean,
    deliver: (message: OutgoingMessage, follows: boolean) => Promise<void>,
  ): Promise<void> {
    // Nothing changes (and nothing re-renders) unless a message goes.
    if (this.#flushing || this.#entries.length === 0 || !ready()) return;
    this.#flushing = true;
    let follows = false;
    try {
      while (this.#entries.length > 0 && ready()) {
        const entry = this.#entries.shift() as Entry;
        this.#inFlight++;
        this.#changed();
        const done = deliver(entry, follows).finally(() => {
          this.#inFlight--;
          entry.settle();
          this.#changed();
        });
        if (this.#entries.length > 0) await done;
        follows = true;
      }
    } finally {
      this.#flushing = false;
    }
  }

  /** Takes back the waiting messages `which` picks (all by default), for the composer. */
  take(which: (message: OutgoingMessage) => boolean = () => true): OutgoingMessage[] {
    const taken = this.#entries.filter(which);
    if (taken.length === 0) return [];
    this.#entries = this.#entries.filter((entry) => !taken.includes(entry));
    for (const entry of taken) entry.settle();
    this.#changed();
    return taken.map(({ settle, ...message }) => message);
  }
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
