import type { DialogRequest, ExtensionUiResponse } from "@pi-kit/protocol";
import type { DiagnosticSink } from "../client/diagnostics.ts";

/**
 * A dialog answer: a string for `select`, `input` and `editor`, a boolean for `confirm`,
 * `undefined` to cancel.
 */
export type DialogReply = string | boolean | undefined;

/** What a dialog handler gets besides the request. */
export interface DialogContext {
  /** Aborts when the dialog closes without this handler's answer (timeout, stale, client closed). */
  readonly signal: AbortSignal;
  /** When the dialog expires (epoch milliseconds), if it has a timeout. */
  readonly deadline: number | undefined;
}

/** Shows a dialog and returns the answer; see {@link DialogReply}. */
export type DialogHandler = (
  request: DialogRequest,
  context: DialogContext,
) => DialogReply | Promise<DialogReply>;

/** Why a dialog closed. */
export type DialogCloseReason =
  | "answered"
  | "cancelled"
  | "timeout"
  | "stale"
  | "no_handler"
  | "closed";

/** One open dialog. */
export interface PendingDialog {
  /** The request as pi sent it; `request.id` keys it. */
  readonly request: DialogRequest;
  /** When it opened (epoch milliseconds). */
  readonly openedAt: number;
  /** When it expires (epoch milliseconds), if pi gave a timeout. */
  readonly deadline: number | undefined;
  /** True when it opened during a run: it goes stale when that run settles. */
  readonly runBound: boolean;
}

// Answers are remembered so a dialog the bridge re-sends after a reconnect (because our answer was
// lost with the old connection) is answered again rather than shown twice; bounded, oldest dropped.
const MAX_REMEMBERED_ANSWERS = 256;

interface OpenDialog extends PendingDialog {
  readonly controller: AbortController;
  readonly timer: ReturnType<typeof setTimeout> | undefined;
}

/** What the manager needs from the client. */
export interface DialogHost {
  /** Writes an `extension_ui_response`. */
  respond(response: ExtensionUiResponse): void;
  /** Reports problems. */
  report: DiagnosticSink;
  /** Called whenever the set of open dialogs changes. */
  changed(dialogs: readonly PendingDialog[]): void;
}

/**
 * Runs extension dialogs: hands each to the registered handler, keyed by id so several can be open,
 * counts down pi's `timeout` itself (pi never says a dialog is over), cancels dialogs that went
 * stale, and cancels at once when no handler is registered so pi never hangs.
 */
export class DialogManager {
  readonly #host: DialogHost;
  readonly #open = new Map<string, OpenDialog>();
  readonly #answered = new Map<string, ExtensionUiResponse>();
  #handler: DialogHandler | undefined;
  #snapshot: readonly PendingDialog[] = [];
  // While re-attaching: the ids pi re-sent, and the dialogs that were open when the connection dropped.
  #resent: Set<string> | undefined;
  #openAtDrop: readonly string[] = [];

  constructor(host: DialogHost, handler?: DialogHandler) {
    this.#host = host;
    this.#handler = handler;
  }

  /** The open dialogs, oldest first (an immutable snapshot). */
  get dialogs(): readonly PendingDialog[] {
    return this.#snapshot;
  }

  /** Registers (or with `undefined`, removes) the dialog handler; returns a function that removes it. */
  setHandler(handler: DialogHandler | undefined): () => void {
    this.#handler = handler;
    return () => {
      if (this.#handler === handler) this.#handler = undefined;
    };
  }

  /**
   * Opens a dialog pi requested. A request for a dialog already open is ignored (the bridge re-sends
   * pending dialogs on re-attach), and one already answered gets the same answer again.
   */
  open(request: DialogRequest, runActive: boolean): void {
    this.#resent?.add(request.id);
    if (this.#open.has(request.id)) return;
    const answered = this.#answered.get(request.id);
    if (answered !== undefined) {
      this.#host.respond(answered);
      return;
    }
    const handler = this.#handler;
    if (handler === undefined) {
      this.#send(request.id, undefined, request.method);
      return;
    }
    const timeout = request.method === "editor" ? undefined : request.timeout;
    const openedAt = Date.now();
    const deadline = timeout !== undefined && timeout > 0 ? openedAt + timeout : undefined;
    const controller = new AbortController();
    const timer =
      deadline === undefined
        ? undefined
        : setTimeout(() => this.#close(request.id, "timeout", true), timeout);
    this.#open.set(request.id, {
      request,
      openedAt,
      deadline,
      runBound: runActive,
      controller,
      timer,
    });
    this.#changed();

    let reply: DialogReply | Promise<DialogReply>;
    try {
      reply = handler(request, { signal: controller.signal, deadline });
    } catch (error) {
      this.#handlerFailed(request, error);
      return;
    }
    Promise.resolve(reply).then(
      (value) => this.answer(request.id, value),
      (error: unknown) => this.#handlerFailed(request, error),
    );
  }

  /** Answers an open dialog (for UIs that render `dialogs` instead of awaiting in the handler). */
  answer(id: string, reply: DialogReply): boolean {
    const dialog = this.#open.get(id);
    if (dialog === undefined) return false;
    this.#finish(dialog);
    this.#send(id, reply, dialog.request.method);
    return true;
  }

  /** Cancels an open dialog. */
  cancel(id: string): boolean {
    return this.#close(id, "cancelled", true);
  }

  /** Cancels the dialogs opened during the run that just settled. */
  cancelStale(): void {
    for (const dialog of [...this.#open.values()]) {
      if (dialog.runBound) this.#close(dialog.request.id, "stale", true);
    }
  }

  /** Cancels every open dialog (the user aborted, as Esc does in pi's own UI). */
  cancelAll(reason: DialogCloseReason = "stale"): void {
    for (const id of [...this.#open.keys()]) this.#close(id, reason, true);
  }

  /** The connection dropped and was replaced: from now on, note which dialogs pi sends again. */
  reattaching(): void {
    this.#resent = new Set();
    this.#openAtDrop = [...this.#open.keys()];
  }

  /**
   * The re-attach is complete (the bridge re-sends pending dialogs before anything else): a dialog
   * open before the drop that was not re-sent is no longer pending in pi, so it is closed as stale.
   */
  reattached(): void {
    const resent = this.#resent;
    if (resent === undefined) return;
    this.#resent = undefined;
    for (const id of this.#openAtDrop) if (!resent.has(id)) this.#close(id, "stale", true);
    this.#openAtDrop = [];
  }

  /** Closes every dialog without writing anything; used once the transport is gone. */
  dispose(): void {
    for (const id of [...this.#open.keys()]) this.#close(id, "closed", false);
  }

  #close(id: string, reason: DialogCloseReason, notifyPi: boolean): boolean {
    const dialog = this.#open.get(id);
    if (dialog === undefined) return false;
    this.#finish(dialog, reason);
    // pi ignores answers to dialogs it already resolved, so a cancel after its own timeout is harmless
    // and covers clock drift between the two timers.
    if (notifyPi) this.#send(id, undefined, dialog.request.method);
    return true;
  }

  #finish(dialog: OpenDialog, abortReason?: DialogCloseReason): void {
    this.#open.delete(dialog.request.id);
    if (dialog.timer !== undefined) clearTimeout(dialog.timer);
    if (abortReason !== undefined) dialog.controller.abort(abortReason);
    this.#changed();
  }

  #handlerFailed(request: DialogRequest, error: unknown): void {
    // A handler that rejects because its dialog was already closed (its signal aborted) is not a fault.
    if (!this.#open.has(request.id)) return;
    this.#host.report({
      kind: "dialog_handler_error",
      message: `the dialog handler failed for ${request.method} ${request.id}; cancelled it: ${String(error)}`,
      error,
      record: request,
    });
    this.#close(request.id, "cancelled", true);
  }

  #send(id: string, reply: DialogReply, method: DialogRequest["method"]): void {
    let response: ExtensionUiResponse;
    if (reply === undefined) response = { type: "extension_ui_response", id, cancelled: true };
    else if (method === "confirm") {
      response = { type: "extension_ui_response", id, confirmed: reply === true };
    } else if (typeof reply === "string") {
      response = { type: "extension_ui_response", id, value: reply };
    } else {
      this.#host.report({
        kind: "dialog_handler_error",
        message: `a ${method} dialog needs a string answer, got ${typeof reply}; cancelled it`,
      });
      response = { type: "extension_ui_response", id, cancelled: true };
    }
    this.#answered.set(id, response);
    if (this.#answered.size > MAX_REMEMBERED_ANSWERS) {
      const oldest = this.#answered.keys().next().value;
      if (oldest !== undefined) this.#answered.delete(oldest);
    }
    this.#host.respond(response);
  }

  #changed(): void {
    this.#snapshot = [...this.#open.values()].map(
      ({ request, openedAt, deadline, runBound }): PendingDialog => ({
        request,
        openedAt,
        deadline,
        runBound,
      }),
    );
    this.#host.changed(this.#snapshot);
  }
}
