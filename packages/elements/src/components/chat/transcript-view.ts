/**
 * The transcript of `<pi-chat>`: the scrolling log of the conversation (the history through
 * `<pi-message-list>`, the shell runs not in it yet, the answer streaming in, the messages not
 * sent yet, what pi is doing) with the jump button over it.
 * @module
 */
import type { PendingDialog, SessionSnapshot } from "@pi-kit/client";
import type { AgentMessage } from "@pi-kit/protocol";
import { html, nothing, type TemplateResult } from "lit";
import type { PiStrings } from "../../internal/i18n/i18n.ts";
import type { PiRenderers } from "../../internal/renderers.ts";
import { BashRunFilter, bashMessage } from "./bash-runs.ts";
import type { OutgoingMessage } from "./delivery.ts";
import { pendingView, progressLabel, progressView } from "./progress-view.ts";
import { ToolIndex } from "./tool-index.ts";
import { TranscriptFilter } from "./transcript-filter.ts";

/** The chat's settings the transcript follows. */
export interface TranscriptHost {
  readonly renderers: PiRenderers | undefined;
  readonly imageHosts: readonly string[] | undefined;
  readonly pageSize: number;
  /** The view sticks to the bottom (the list renders what arrives at once). */
  readonly pinned: boolean;
}

/** What the transcript shows in one render, as the chat works it out. */
export interface TranscriptState {
  readonly snapshot: SessionSnapshot | undefined;
  /** The messages shown (see {@link ChatTranscript.shown}). */
  readonly shown: readonly AgentMessage[];
  /** Nothing to show yet: the `empty` slot shows. */
  readonly empty: boolean;
  readonly strings: PiStrings;
  /** The tool calls' dialogs (shown in their cards), by tool call id. */
  readonly toolDialogs: ReadonlyMap<string, PendingDialog> | undefined;
  /** The messages offer their actions (edit, try again): connected, in control, idle. */
  readonly actions: boolean;
  /** A dialog above the composer waits on the user: the transcript is inert under it. */
  readonly inert: boolean;
  /** The messages not sent yet (the outbox's), and whether one is being handed to pi. */
  readonly outbox: { readonly waiting: readonly OutgoingMessage[]; readonly delivering: boolean };
  /** Connected to a client: a waiting message says "Sending…", not "Sending when connected…". */
  readonly connected: boolean;
  /** A run goes on that the chat follows: the progress line says what pi does. */
  readonly live: boolean;
  /** The jump button over the log. */
  readonly jump: unknown;
}

/**
 * The transcript's view with what it remembers between renders: which messages it shows, the
 * shell runs not in the history yet, and the slots of the streaming answer's tool calls.
 */
export class ChatTranscript {
  readonly #filter = new TranscriptFilter();
  readonly #bashRuns = new BashRunFilter();
  readonly #tools = new ToolIndex();

  /** The messages shown: pi's internal notices only with `showInternal`. */
  shown(snapshot: SessionSnapshot | undefined, showInternal: boolean): readonly AgentMessage[] {
    return this.#filter.of(snapshot?.messages ?? [], showInternal);
  }

  /** True when there is nothing to show: a message waiting to be sent is in the conversation already. */
  empty(
    shown: readonly AgentMessage[],
    snapshot: SessionSnapshot | undefined,
    waiting: readonly OutgoingMessage[],
  ): boolean {
    return shown.length === 0 && snapshot?.streamingMessage === undefined && waiting.length === 0;
  }

  /** What the jump button counts of `shown`: the messages, tool results (in their cards) not. */
  count(shown: readonly AgentMessage[], snapshot: SessionSnapshot | undefined): number {
    return (
      shown.filter((m) => m.role !== "toolResult").length + (snapshot?.streamingMessage ? 1 : 0)
    );
  }

  /** The log, with `host`'s settings. */
  render(host: TranscriptHost, view: TranscriptState): TemplateResult {
    const { snapshot, strings: s, toolDialogs } = view;
    const streaming = snapshot?.streamingMessage;
    const executions = snapshot?.toolExecutions ?? new Map();
    if (streaming !== undefined) this.#tools.update(snapshot?.messages ?? []);
    return html`<div class="log-wrap" ?inert=${view.inert}>
      <div part="transcript" class="log" role="log" aria-label=${s.transcript} tabindex="0">
        <div class="column">
          ${view.empty ? html`<slot name="empty"></slot>` : nothing}
          <pi-message-list
            exportparts="show-earlier, bubble, text, thinking, image, error, notice, bash, code-block, tool-call, tool-header, tool-arguments, tool-output, actions, action, time"
            .messages=${view.shown}
            .toolExecutions=${executions}
            .toolDialogs=${toolDialogs}
            ?actions=${view.actions}
            .strings=${s}
            .renderers=${host.renderers}
            .imageHosts=${host.imageHosts}
            .pageSize=${host.pageSize}
            .follow=${host.pinned}
          ></pi-message-list>
          ${this.#bashRuns
            .visible(snapshot?.bashRuns ?? [])
            .map(
              (run) => html`<pi-message .strings=${s} .message=${bashMessage(run)}></pi-message>`,
            )}
          ${
            streaming
              ? html`<pi-message
                  streaming
                  exportparts="bubble, text, thinking, image, error, notice, code-block, tool-call, tool-header, tool-arguments, tool-output"
                  .message=${streaming}
                  .tools=${this.#tools.slotsFor(streaming, executions, toolDialogs)}
                  .strings=${s}
                  .renderers=${host.renderers}
                  .imageHosts=${host.imageHosts}
                ></pi-message>`
              : nothing
          }
          ${pendingView(view.outbox.waiting, view.connected, s)}
          ${progressView(progressLabel(view.live ? snapshot : undefined, view.outbox.delivering, s))}
        </div>
        <div class="turn-space" aria-hidden="true"></div>
      </div>
      ${view.jump}
    </div>`;
  }
}
