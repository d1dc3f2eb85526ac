import type { DialogRequest, ExtensionUiResponse } from "@pi-kit/protocol";
import type { DiagnosticSink } from "../diagnostics/pi-client-diagnostic.ts";

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

/**
 * How dialogs are answered: a {@link DialogHandler}, or `"manual"`: each dialog waits in
 * `session.dialogs` until `client.ui.answer` or `client.ui.cancel`, its own timeout, or until it
 * goes stale. Without either, every dialog is cancelled at once so pi never hangs.
 */
export type DialogHandling = DialogHandler | "manual";

/** What a dialog waits on besides its answer: when all of them are over, it is stale. */
export interface DialogBindings {
  /** It opened during a run: it goes stale when the run settles. */
  readonly run: boolean;
  /**
   * Ids of the calls pending when it opened that can open dialogs (an extension command's
   * `prompt`, a session command's `session_before_*` hook, …): stale once pi answered them all.
   */
  readonly calls: readonly string[];
}

/** Why a dialog closed. */
export type DialogCloseReason =
  | "answered"
  | "answered_elsewhere"
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

// The token a run binding is released with.
const RUN = "run";

// Answers are remembered so a dialog the bridge re-sends after a reconnect (because our answer was
// lost with the old connection) is answered again rather than shown twice; bounded, oldest dropped.
// So are the dialogs another connection answered, whose request may still be on its way.
const MAX_REMEMBERED_ANSWERS = 256;

interface OpenDialog extends PendingDialog {
  readonly controller: AbortController;
  readonly timer: ReturnType<typeof setTimeout> | undefined;
  /** The order it opened in, for {@link DialogManager.closeOpenedBefore}. */
  readonly seq: number;
  /** The run and calls it still waits on (see {@link DialogBindings}); empty when it had none. */
  readonly waitsOn: Set<string>;
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
 * Runs extension dialogs: hands each to the registered handler (or keeps it for a manual answer),
 * keyed by id so several can be open, counts down pi's `timeout` itself (pi never says a dialog
 * is over), cancels dialogs that went stale, and cancels at once when there is no handler so pi
 * never hangs. A dialog is stale once everything it opened within is over (the run settled, the
 * calls answered; an extension that cancels its own dialog says nothing) or the session changed.
 */
export class DialogManager {
  readonly #host: DialogHost;
  readonly #open = new Map<string, OpenDialog>();
  /** Dialogs already answered: by us (the answer, to give again), or by another connection (`null`). */
  readonly #answered = new Map<string, ExtensionUiResponse | null>();
  #handler: DialogHandling | undefined;
  #seq = 0;
  #snapshot: readonly PendingDialog[] = [];
  // While re-attaching: the ids pi re-sent, and the dialogs that were open when the connection dropped.
  #resent: Set<string> | undefined;
  #openAtDrop: readonly string[] = [];

  constructor(host: DialogHost, handler?: DialogHandling) {
    this.#host = host;
    this.#handler = handler;
  }

  /** The open dialogs, oldest first (an immutable snapshot). */
  get dialogs(): readonly PendingDialog[] {
    return this.#snapshot;
  }

  /** Registers (or with `undefined`, removes) the dialog handling; returns a function that removes it. */
  setHandler(handler: DialogHandling | undefined): () => void {
    this.#handler = handler;
    return () => {
      if (this.#handler === handler) this.#handler = undefined;
    };
  }

  /**
   * Opens a dialog pi requested. A request for a dialog already open is ignored (the bridge re-sends
   * pending dialogs on re-attach), and one already answered gets the same answer again.
   */
  open(request: DialogRequest, bindings: DialogBindings): void {
    this.#resent?.add(request.id);
    if (this.#open.has(request.id)) return;
    const answered = this.#answered.get(request.id);
    if (answered === null) return;
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
      runBound: bindings.run,
      controller,
      timer,
      seq: ++this.#seq,
      waitsOn: new Set([...(bindings.run ? [RUN] : []), ...bindings.calls]),
    });
    this.#changed();
    if (handler === "manual") return;

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

  /**
   * Another connection to the session answered dialog `id`: it closes here without an answer of
   * ours, and should its request arrive only now (it can, behind a full socket), it never opens.
   */
  answeredElsewhere(id: string): void {
    this.#close(id, "answered_elsewhere", false);
    this.#remember(id, null);
  }

  /** The run settled: dialogs that waited on it (and on nothing else still going) are stale. */
  cancelStale(): void {
    this.release(RUN);
  }

  /** pi answered call `id` (or a run settled, for the run token): what waited only on it is stale. */
  release(id: string): void {
    for (const dialog of [...this.#open.values()]) {
      if (!dialog.waitsOn.delete(id) || dialog.waitsOn.size > 0) continue;
      this.#close(dialog.request.id, "stale", true);
    }
  }

  /** A number that orders dialogs: those opened before it is taken are older. */
  mark(): number {
    return this.#seq;
  }

  /** The session changed: dialogs opened before `mark` belonged to the old one. */
  closeOpenedBefore(mark: number): void {
    for (const dialog of [...this.#open.values()]) {
      if (dialog.seq <= mark) this.#close(dialog.request.id, "stale", true);
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
    this.#remember(id, response);
    this.#host.respond(response);
  }

  #remember(id: string, answer: ExtensionUiResponse | null): void {
    this.#answered.set(id, answer);
    if (this.#answered.size > MAX_REMEMBERED_ANSWERS) {
      const oldest = this.#answered.keys().next().value;
      if (oldest !== undefined) this.#answered.delete(oldest);
    }
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
