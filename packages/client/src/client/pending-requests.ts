import type { DiagnosticSink } from "../diagnostics/pi-client-diagnostic.ts";
import { PiClientError } from "./errors.ts";

/** The fields of a `response` record that correlation needs. */
export interface ResponseRecord {
  readonly type: "response";
  readonly id?: string | number;
  readonly command?: string;
  readonly success: boolean;
  readonly error?: string;
  readonly data?: unknown;
}

/** Per-call options accepted by every command method. */
export interface CallOptions {
  /** Cancels the wait (pi may still carry the command out; only `abort`-style commands stop it). */
  signal?: AbortSignal;
  /**
   * Milliseconds to wait for pi's answer. Commands that can legitimately take long (`prompt`,
   * which waits for extension dialogs, `compact`, `bash`, `abort`) default to no timeout;
   * the others default to the client's `defaultTimeoutMs`.
   */
  timeoutMs?: number;
}

interface Pending {
  readonly id: string;
  readonly command: string;
  /** The connection that carried the record, once written (reconnecting transports). */
  sentOn?: number;
  readonly resolve: (response: ResponseRecord) => void;
  readonly reject: (error: PiClientError) => void;
  readonly dispose: () => void;
}

// Ids of calls that gave up waiting are remembered so their late answers can be reported as late,
// not as foreign. The bound keeps a long-lived client from growing without limit.
const MAX_EXPIRED = 1024;

/**
 * Correlates responses with calls by unique id, applies timeouts and signals, reports late and
 * foreign responses, and matches id-less failures (parse errors; 0.73.x unknown commands) to a
 * pending call so nothing hangs.
 */
export class PendingRequests {
  // Map preserves insertion order, which is the send order the id-less matching relies on.
  readonly #pending = new Map<string, Pending>();
  readonly #expired = new Map<string, string>();
  readonly #report: DiagnosticSink;
  readonly #done: ((id: string) => void) | undefined;
  #closedError: ((command: string) => PiClientError) | undefined;

  /**
   * `done` hears of every call that is over in pi: answered (whether the caller still waited or
   * not), or failed without reaching pi. A call the caller gave up on is not over until pi answers.
   */
  constructor(report: DiagnosticSink, done?: (id: string) => void) {
    this.#report = report;
    this.#done = done;
  }

  /** Number of calls still waiting. */
  get size(): number {
    return this.#pending.size;
  }

  /** Registers a call before its record is written; resolves with pi's response, success or not. */
  register(id: string, command: string, options: CallOptions = {}): Promise<ResponseRecord> {
    if (this.#closedError !== undefined) return Promise.reject(this.#closedError(command));
    const { signal, timeoutMs } = options;
    if (signal?.aborted) return Promise.reject(PiClientError.cancelled(command, signal.reason));
    return new Promise<ResponseRecord>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const onAbort = (): void =>
        this.#expire(id, PiClientError.cancelled(command, signal?.reason));
      const dispose = (): void => {
        if (timer !== undefined) clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
      };
      this.#pending.set(id, { id, command, resolve, reject, dispose });
      if (timeoutMs !== undefined && Number.isFinite(timeoutMs)) {
        timer = setTimeout(
          () => this.#expire(id, PiClientError.timeout(command, timeoutMs)),
          timeoutMs,
        );
      }
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  /** Fails one call whose record could not be written: it never reached pi. */
  fail(id: string, error: PiClientError): void {
    if (this.#reject(id, error)) this.#done?.(id);
  }

  /** Records which connection carried a call's record (a reconnecting transport's `generation`). */
  markSent(id: string, generation: number): void {
    const entry = this.#pending.get(id);
    if (entry !== undefined) entry.sentOn = generation;
  }

  /**
   * Fails the calls sent on a connection older than `generation`: their answers died with it,
   * though pi may still be running them. Returns their ids.
   */
  failSentBefore(generation: number, error: (command: string) => PiClientError): string[] {
    const lost = [...this.#pending.values()].filter(
      (entry) => entry.sentOn !== undefined && entry.sentOn < generation,
    );
    for (const entry of lost) this.#reject(entry.id, error(entry.command));
    return lost.map((entry) => entry.id);
  }

  #reject(id: string, error: PiClientError): boolean {
    const entry = this.#pending.get(id);
    if (entry === undefined) return false;
    this.#pending.delete(id);
    entry.dispose();
    entry.reject(error);
    return true;
  }

  /** Routes one response record. Responses never reach event listeners, whatever happens here. */
  deliver(response: ResponseRecord): void {
    if (response.id === undefined) {
      this.#deliverIdless(response);
      return;
    }
    const id = String(response.id);
    const entry = this.#pending.get(id);
    if (entry !== undefined) {
      this.#pending.delete(id);
      entry.dispose();
      this.#done?.(id);
      entry.resolve(response);
      return;
    }
    const why = this.#expired.get(id);
    if (why !== undefined) {
      this.#expired.delete(id);
      this.#done?.(id);
      this.#report({
        kind: "late_response",
        message: `dropped the ${response.command ?? "?"} response for ${id}, which arrived after the call ${why}`,
        record: response,
      });
      return;
    }
    this.#report({
      kind: "unmatched_response",
      message: `dropped a ${response.command ?? "?"} response with unknown id ${id}`,
      record: response,
    });
  }

  /** Rejects every pending call and every later registration; used when the transport closes. */
  close(error: (command: string) => PiClientError): void {
    this.#closedError ??= error;
    const entries = [...this.#pending.values()];
    this.#pending.clear();
    for (const entry of entries) {
      entry.dispose();
      entry.reject(error(entry.command));
    }
  }

  #expire(id: string, error: PiClientError): void {
    const entry = this.#pending.get(id);
    if (entry === undefined) return;
    this.#pending.delete(id);
    entry.dispose();
    this.#expired.set(id, error.code === "timeout" ? "timed out" : "was cancelled");
    if (this.#expired.size > MAX_EXPIRED) {
      const oldest = this.#expired.keys().next().value;
      if (oldest !== undefined) this.#expired.delete(oldest);
    }
    entry.reject(error);
  }

  #deliverIdless(response: ResponseRecord): void {
    const target = this.#matchIdless(response);
    const text = response.error ?? "(no error text)";
    this.#report({
      kind: "idless_failure",
      message:
        target === undefined
          ? `id-less ${response.success ? "response" : "failure"} (${response.command ?? "no command"}): ${text}; no pending call matched`
          : `id-less failure (${response.command ?? "no command"}) failed pending ${target.command} ${target.id}: ${text}`,
      record: response,
    });
    if (target === undefined || response.success) return;
    this.#pending.delete(target.id);
    target.dispose();
    this.#done?.(target.id);
    // Delivered as that call's own failure, so the caller reads it as any other answer.
    target.resolve({ ...response, id: target.id, command: target.command });
  }

  #matchIdless(response: ResponseRecord): Pending | undefined {
    if (response.success) return undefined;
    const entries = [...this.#pending.values()];
    const command = response.command;
    if (command !== undefined && command !== "parse") {
      // 0.73.x drops the id of an unknown command but keeps its name; calls of one type are
      // answered in send order for this failure (it is immediate), so the oldest is the one.
      return entries.find((entry) => entry.command === command);
    }
    // A parse error (or `Unknown command: undefined`) names no command. pi answers it synchronously
    // as it reads the line, so the most recently written call is the likeliest culprit.
    return entries.at(-1);
  }
}
