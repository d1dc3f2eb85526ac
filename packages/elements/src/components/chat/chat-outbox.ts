import type { PiClient } from "@pi-kit/client";
import { PiErrorEvent } from "../../events/pi-error.ts";
import { deliver, Outbox, type OutgoingMessage } from "./outbox.ts";
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

/**
 * The outbox of `<pi-chat>`: what it sends waits here until pi can take it (see {@link Outbox}),
 * and goes back to the composer when the chat cannot send (text the user typed is never dropped).
 * With an `outbox-key`, the waiting messages are kept in the tab across reloads.
 */
export class ChatOutbox extends Outbox {
  readonly #chat: OutboxChat;
  readonly #link: () => OutboxLink;
  readonly #beforePrompt: () => Promise<void>;
  // Loaded once a chat keeps its waiting messages (`outbox-key`).
  #storage: Promise<typeof import("./outbox-storage.ts")> | undefined;

  /** `beforePrompt` is awaited before each prompt (the chat's dialog must be ready to answer). */
  constructor(chat: OutboxChat, link: () => OutboxLink, beforePrompt: () => Promise<void>) {
    super(() => {
      chat.requestUpdate();
      void this.#storage?.then((s) => s.saveWaiting(this.waiting));
    });
    this.#chat = chat;
    this.#link = link;
    this.#beforePrompt = beforePrompt;
  }

  /** Keeps the waiting messages for conversation `key` from now on, after those kept from before a reload. */
  keepFor(key: string | undefined): void {
    if (!key) return;
    this.#storage ??= import("./outbox-storage.ts");
    void this.#storage.then((s) => {
      if (key === this.#chat.outboxKey && !this.waiting.some((m) => m.key === key))
        this.restore(s.loadWaiting(key).map((m) => ({ ...m, client: undefined, key })));
    });
  }

  /** Sends a message to the chat's client now, or once it can take it; resolves when it went or came back. */
  send(message: Pick<OutgoingMessage, "text" | "images" | "mode">): Promise<void> {
    const sent = this.add({
      ...message,
      client: this.#chat.connection?.client,
      key: this.#chat.outboxKey,
    });
    this.dispatch();
    return sent;
  }

  /** Hands the waiting messages to pi once it can take them, or gives back what cannot go. */
  dispatch(): void {
    if (this.waiting.length === 0) return;
    // Before the first render there is no composer to give them to: after it.
    if (this.#chat.composer === null) return;
    if (this.#link() === "closed") {
      this.#giveBack(this.take());
      return;
    }
    // A message for a connection the page has since replaced (another conversation) is not
    // sent there: it goes back to the composer.
    const current = this.#chat.connection?.client;
    const key = this.#chat.outboxKey;
    this.#giveBack(this.take((m) => (m.client ?? current) !== current || (m.key ?? key) !== key));
    const ready = (): boolean =>
      this.#chat.connection?.client !== undefined && this.#link() === "open";
    void this.flush(ready, (message, follows) => this.#deliver(message, follows));
  }

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

  // Puts texts (and their images) back into the composer, before what is typed there now.
  #giveBack(messages: readonly OutgoingMessage[]): void {
    if (messages.length === 0) return;
    this.#chat.composer?.restore(
      messages.map((m) => m.text),
      messages.flatMap((m) => m.images),
    );
  }
}
