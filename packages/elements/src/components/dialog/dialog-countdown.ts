import type { DialogRequest } from "@pi-kit/protocol";

/** A dialog to show: pi's request and, when it has a timeout, its deadline (epoch ms). */
export interface PiDialogItem {
  readonly request: DialogRequest;
  /** When it expires; derived from `request.timeout` when absent. The client's `PendingDialog` fits. */
  readonly deadline?: number | undefined;
}

/** Seconds left at which the countdown is announced once to screen readers. */
export const WARN_AT_SECONDS = 10;

/** The dialog element as its countdown sees it. */
export interface CountdownHost {
  /** The dialogs waiting, oldest first (the first is showing). */
  readonly pending: readonly PiDialogItem[];
  readonly isConnected: boolean;
  requestUpdate(): void;
}

/**
 * The deadlines of `<pi-dialog>`'s dialogs: when each expires (from `request.timeout` when pi set
 * one and the item has no deadline of its own), a timer that wakes at the next whole second of the
 * showing countdown and at the first deadline of any dialog (never on a fixed fast interval), and
 * on each wake the dialogs that `expire` and the one warning, once, that the showing dialog is
 * about to (`warn`, with the seconds left).
 */
export class DialogCountdown {
  readonly #host: CountdownHost;
  readonly #expire: (item: PiDialogItem) => void;
  readonly #warn: (item: PiDialogItem, seconds: number) => void;
  /** Deadlines of items given without one. */
  readonly #deadlines = new Map<string, number>();
  readonly #warned = new Set<string>();
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    host: CountdownHost,
    expire: (item: PiDialogItem) => void,
    warn: (item: PiDialogItem, seconds: number) => void,
  ) {
    this.#host = host;
    this.#expire = expire;
    this.#warn = warn;
  }

  /** When `item` expires (epoch ms), first asked at `now`; `undefined` when it does not. */
  deadline(item: PiDialogItem, now: number): number | undefined {
    if (item.deadline !== undefined) return item.deadline;
    const request = item.request;
    if (request.method === "editor" || !request.timeout || request.timeout <= 0) return undefined;
    let deadline = this.#deadlines.get(request.id);
    if (deadline === undefined) {
      deadline = now + request.timeout;
      this.#deadlines.set(request.id, deadline);
    }
    return deadline;
  }

  /** Whole seconds left of `item` at `now`; `undefined` when it does not expire. */
  left(item: PiDialogItem, now: number): number | undefined {
    const deadline = this.deadline(item, now);
    return deadline === undefined ? undefined : Math.max(0, Math.ceil((deadline - now) / 1000));
  }

  /** Forgets the dialogs whose ids are not in `ids` (their source dropped them). */
  keep(ids: ReadonlySet<string>): void {
    for (const id of this.#deadlines.keys()) if (!ids.has(id)) this.#deadlines.delete(id);
    for (const id of this.#warned) if (!ids.has(id)) this.#warned.delete(id);
  }

  /** Sets the timer for the next wake of the pending dialogs (none while the host is out of the page). */
  schedule(): void {
    this.stop();
    const now = Date.now();
    const pending = this.#host.pending;
    let wake = Infinity;
    for (const item of pending) {
      const deadline = this.deadline(item, now);
      if (deadline === undefined) continue;
      wake = Math.min(wake, deadline);
      if (item === pending[0]) wake = Math.min(wake, now + ((deadline - now) % 1000 || 1000));
    }
    if (wake === Infinity || !this.#host.isConnected) return;
    this.#timer = setTimeout(() => this.tick(Date.now()), Math.max(0, wake - now) + 5);
  }

  /** Stops the timer. */
  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** A wake at `now`: expires what is due, warns of the showing dialog, updates the host. */
  tick(now: number): void {
    const pending = this.#host.pending;
    for (const item of pending) {
      const deadline = this.deadline(item, now);
      if (deadline === undefined) continue;
      if (deadline <= now) this.#expire(item);
      else if (
        item === pending[0] &&
        deadline - now <= WARN_AT_SECONDS * 1000 &&
        !this.#warned.has(item.request.id)
      ) {
        this.#warned.add(item.request.id);
        const timeout = item.request.method === "editor" ? 0 : (item.request.timeout ?? 0);
        // A dialog that was short from the start is not worth a second announcement.
        if (timeout > WARN_AT_SECONDS * 1000 * 1.5)
          this.#warn(item, Math.ceil((deadline - now) / 1000));
      }
    }
    this.#host.requestUpdate();
  }
}
