import type { PiClient } from "@pi-kit/client";
import { PiErrorEvent } from "../../events/pi-error.ts";
import type { ConnectionStatus } from "../../internal/controllers/connection-status-controller.ts";
import { deliver, type OutgoingMessage } from "./delivery.ts";
import type { PiComposer } from "./pi-composer.ts";

/** The chat as its outbox sees it. */
export interface OutboxChat extends EventTarget {
  /** The conversation messages are sent in (`<pi-chat outbox-key>`), if they are kept across reloads. */
  readonly outboxKey: string | undefined;
  readonly connection: { readonly client?: PiClient | undefined } | undefined;
  readonly composer: Pick<PiComposer, "restore"> | null;
  readonly snapshot: { readonly isRunning: boolean } | undefined;
  requestUpdate(): void;
}

/**
 * Whether the chat can hand pi a message: `open` (connected, in control), `waiting` (no client
 * yet, connecting, reconnecting) or `closed` (it watches, or its connection closed for good).
 */
export type OutboxLink = "open" | "waiting" | "closed";

/** The link of a chat whose connection is in `status`, `watching` another viewer in control. */
export function outboxLink(status: ConnectionStatus, watching: boolean): OutboxLink {
  if (status === "disconnected" || watching) return "closed";
  return status === "connected" ? "open" : "waiting";
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
 * open is not held back. What the chat cannot send goes back to the composer (text the user
 * typed is never dropped). With an `outbox-key`, the waiting messages are kept in the tab across
 * reloads.
 */
export class ChatOutbox {
  readonly #chat: OutboxChat;
  readonly #link: () => OutboxLink;
  readonly #beforePrompt: () => Promise<void>;
  // Loaded once a chat keeps its waiting messages (`outbox-key`).
  #storage: Promise<typeof import("./outbox-storage.ts")> | undefined;
  #entries: Entry[] = [];
  #flushing = false;
  #inFlight = 0;

  /** `beforePrompt` is awaited before each prompt (the chat's dialog must be ready to answer). */
  constructor(chat: OutboxChat, link: () => OutboxLink, beforePrompt: () => Promise<void>) {
    this.#chat = chat;
    this.#link = link;
    this.#beforePrompt = beforePrompt;
  }

  /** The messages waiting, oldest first. */
  get waiting(): readonly OutgoingMessage[] {
    return this.#entries;
  }

  /** True while a message handed to pi has not been answered yet. */
  get delivering(): boolean {
    return this.#inFlight > 0;
  }

  /** Keeps the waiting messages for conversation `key` from now on, after those kept from before a reload. */
  keepFor(key: string | undefined): void {
    if (!key) return;
    this.#storage ??= import("./outbox-storage.ts");
    void this.#storage.then((s) => {
      if (key !== this.#chat.outboxKey || this.#entries.some((m) => m.key === key)) return;
      const kept = s.loadWaiting(key);
      if (kept.length === 0) return;
      // Ahead of those sent since.
      this.#entries.unshift(...kept.map((m) => ({ ...m, client: undefined, key, settle() {} })));
      this.#changed();
    });
  }

  /** Sends a message to the chat's client now, or once it can take it; resolves when it went or came back. */
  send(message: Pick<OutgoingMessage, "text" | "images" | "mode">): Promise<void> {
    const sent = new Promise<void>((settle) => {
      const { outboxKey: key, connection } = this.#chat;
      this.#entries.push({ ...message, client: connection?.client, key, settle });
    });
    this.#changed();
    this.dispatch();
    return sent;
  }

  /** Hands the waiting messages to pi once it can take them, or gives back what cannot go. */
  dispatch(): void {
    if (this.#entries.length === 0) return;
    // Before the first render there is no composer to give them to: after it.
    if (this.#chat.composer === null) return;
    if (this.#link() === "closed") {
      this.#giveBack(this.#take(() => true));
      return;
    }
    // A message for a connection the page has since replaced (another conversation) is not
    // sent there: it goes back to the composer.
    const current = this.#chat.connection?.client;
    const key = this.#chat.outboxKey;
    this.#giveBack(this.#take((m) => (m.client ?? current) !== current || (m.key ?? key) !== key));
    void this.#flush();
  }

  /**
   * Delivers the waiting messages in order while pi can take them. Does nothing while a message
   * with others behind it is being answered (that flush goes on with the rest).
   */
  async #flush(): Promise<void> {
    const ready = (): boolean =>
      this.#chat.connection?.client !== undefined && this.#link() === "open";
    // Nothing changes (and nothing re-renders) unless a message goes.
    if (this.#flushing || this.#entries.length === 0 || !ready()) return;
    this.#flushing = true;
    let follows = false;
    try {
      while (this.#entries.length > 0 && ready()) {
        const entry = this.#entries.shift() as Entry;
        this.#inFlight++;
        this.#changed();
        const done = this.#deliver(entry, follows).finally(() => {
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

  // Hands one message to pi; a failure gives it back, with a pi-error.
  async #deliver(message: OutgoingMessage, follows: boolean): Promise<void> {
    const client = this.#chat.connection?.client;
    if (client === undefined) return this.#giveBack([message]);
    // What the user sees decides, as it did for the composer's own mode: the client's run lasts
    // until pi settled, and a follow-up sent after the answer ended would wait in pi's queue.
    const running = this.#chat.snapshot?.isRunning ?? false;
    try {
      await deliver(client, message, running, follows, this.#beforePrompt);
    } catch (error) {
      this.#giveBack([message]);
      this.#chat.dispatchEvent(new PiErrorEvent("send", error));
    }
  }

  // Takes back the waiting messages `which` picks, settled.
  #take(which: (message: OutgoingMessage) => boolean): readonly Entry[] {
    const taken = this.#entries.filter(which);
    if (taken.length === 0) return taken;
    this.#entries = this.#entries.filter((entry) => !taken.includes(entry));
    for (const entry of taken) entry.settle();
    this.#changed();
    return taken;
  }

  // Puts texts (and their images) back into the composer, before what is typed there now.
  #giveBack(messages: readonly OutgoingMessage[]): void {
    if (messages.length === 0) return;
    this.#chat.composer?.restore(
      messages.map((m) => m.text),
      messages.flatMap((m) => m.images),
    );
  }

  // What the chat shows changed: it renders again, and a kept conversation is saved.
  #changed(): void {
    this.#chat.requestUpdate();
    void this.#storage?.then((s) => s.saveWaiting(this.#entries));
  }
}
