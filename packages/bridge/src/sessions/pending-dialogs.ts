/**
 * The dialogs pi is waiting on (select, confirm, input, editor). pi never tells anyone that a
 * dialog is over, so the bridge keeps each request until a client answers it or its `timeout`
 * runs out, and re-sends the open ones to a client that (re)attaches.
 */
import { isDialogMethod } from "@pi-kit/protocol";
import type { BridgeDialogClosedRecord } from "@pi-kit/protocol/bridge";

/** One open dialog: the request record as pi wrote it, and when pi gives up on it. */
interface PendingDialog {
  readonly record: Record<string, unknown>;
  /** `performance.now()` time after which pi has resolved it by itself; `undefined`: never. */
  readonly expiresAt: number | undefined;
}

/** The open dialogs of one session, oldest first, at most `capacity` of them. */
export class PendingDialogs {
  readonly #capacity: number;
  readonly #dialogs = new Map<string, PendingDialog>();

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  /** Remembers a dialog request; past capacity the oldest is forgotten (pi may still await it). */
  add(record: Record<string, unknown>, now = performance.now()): void {
    const id = record.id;
    if (typeof id !== "string") return;
    const timeout = record.timeout;
    const expiresAt = typeof timeout === "number" && timeout > 0 ? now + timeout : undefined;
    this.#dialogs.set(id, { record, expiresAt });
    if (this.#dialogs.size > this.#capacity) {
      const oldest = this.#dialogs.keys().next().value;
      if (oldest !== undefined) this.#dialogs.delete(oldest);
    }
  }

  /** Reads an `extension_ui_request` pi wrote, and remembers it when it opens a dialog. */
  observe(request: Record<string, unknown>): void {
    if (request.type === "extension_ui_request" && isDialogMethod(request.method))
      this.add(request);
  }

  /** Forgets a dialog once a client has answered it; returns whether it was still open. */
  answer(id: string, now = performance.now()): boolean {
    this.#expire(now);
    return this.#dialogs.delete(id);
  }

  /** Forgets everything (pi exited). */
  clear(): void {
    this.#dialogs.clear();
  }

  /** How many dialogs are open (expired ones are dropped first). */
  size(now = performance.now()): number {
    this.#expire(now);
    return this.#dialogs.size;
  }

  /**
   * The open dialogs as records to re-send, oldest first. A `timeout` is rewritten to the time
   * pi has left, so the client's countdown ends when pi's does.
   */
  replay(now = performance.now()): string[] {
    this.#expire(now);
    const lines: string[] = [];
    for (const { record, expiresAt } of this.#dialogs.values()) {
      const left = expiresAt === undefined ? undefined : Math.max(1, Math.round(expiresAt - now));
      lines.push(JSON.stringify(left === undefined ? record : { ...record, timeout: left }));
    }
    return lines;
  }

  #expire(now: number): void {
    for (const [id, dialog] of this.#dialogs) {
      if (dialog.expiresAt !== undefined && dialog.expiresAt <= now) this.#dialogs.delete(id);
    }
  }
}

/**
 * The `bridge_dialog_closed` record telling the other connections that `by` answered dialog `id`:
 * pi never says a dialog is over, and theirs would stay open until it timed out.
 */
export function dialogClosed(
  id: string,
  by: { readonly id: number; readonly label: string },
): string {
  const closed: BridgeDialogClosedRecord = {
    type: "bridge_dialog_closed",
    id,
    by: { id: by.id, label: by.label },
  };
  return JSON.stringify(closed);
}
