/**
 * The open conversation as the history lists it: its title above the chat, and its session files
 * for the tree. The title is unknown until the history said (never the conversation's bare name);
 * a conversation the history has no title for is untitled.
 */
import type { SessionSummary } from "@pi-kit/client";
import type { ReactiveControllerHost } from "lit";
import type { DemoHistory } from "./demo-history.ts";

/** What the history said of the open conversation, for a Lit host: re-renders it on each change. */
export class ConversationTitle {
  readonly #host: ReactiveControllerHost;
  /** The conversation open now. */
  readonly #open: () => string | undefined;
  #summary: SessionSummary | undefined;
  /** The conversation whose title the history was last asked for (and answered, maybe with none). */
  #looked: string | undefined;

  constructor(host: ReactiveControllerHost, open: () => string | undefined) {
    this.#host = host;
    this.#open = open;
  }

  /** The history listed `summary` (a rename, the visitor's choice, the next after a delete). */
  note(summary: SessionSummary | undefined): void {
    this.#summary = summary;
    this.#host.requestUpdate();
  }

  /** Conversation `name` opens: a summary of another one is no use. */
  opening(name: string): void {
    if (this.#summary?.name !== name) this.note(undefined);
  }

  /** Asks `history` for `name`'s summary; the title is decoration, so a failure leaves none. */
  async refresh(history: DemoHistory | undefined, name: string): Promise<void> {
    const summary = await history?.get(name).catch(() => undefined);
    if (name !== this.#open()) return;
    this.#looked = name;
    this.note(summary);
  }

  /** The open conversation's title (`untitled` when it has none); `undefined` until the history said. */
  title(untitled: string): string | undefined {
    const name = this.#open();
    const summary = this.#summary;
    if (summary !== undefined && summary.name === name) return summary.title || untitled;
    return this.#looked === name ? untitled : undefined;
  }

  /** The open conversation's session files, for the tree to list its other versions. */
  forks(): SessionSummary["forks"] {
    return this.#summary?.name === this.#open() ? this.#summary?.forks : undefined;
  }
}
