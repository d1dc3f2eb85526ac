import type { AgentMessage, RpcEvent, SessionState } from "@pi-kit/protocol";
import type { PiVersionLine } from "./capabilities.ts";
import { PiClientError } from "./errors.ts";

/** How a run ended. */
export interface RunOutcome {
  /** True when the run ended by abort (or, when `inferred`, ended without pi announcing how). */
  readonly aborted: boolean;
  /**
   * True when pi never announced the end and `get_state` showed it idle: a 0.73.x `compact` or
   * `new_session` during a stream (which emit no `agent_end`), or events lost in a reconnect.
   */
  readonly inferred?: boolean;
}

/** Options for waiting on a run. */
export interface WaitOptions {
  /** Stops waiting (the run itself goes on). */
  signal?: AbortSignal;
  /** Milliseconds to wait; no limit by default. */
  timeoutMs?: number;
}

/** A registered wait for the next settle; register it before sending whatever starts the run. */
export interface SettleWatch {
  /** Resolves when the next run settles. */
  readonly promise: Promise<RunOutcome>;
  /** Stops waiting; the promise then never settles. */
  cancel(): void;
}

/** What the tracker needs from the client. */
export interface RunTrackerHost {
  /** The connected pi line. */
  versionLine(): PiVersionLine;
  /** A `get_state` round trip, used on 0.73.x as an ordering barrier. */
  barrier(): Promise<SessionState>;
  /** Called once per settled run. */
  settled(outcome: RunOutcome): void;
  /** Told when a run was settled from `get_state` because pi never announced its end. */
  unannounced?(outcome: RunOutcome): void;
}

interface Waiter {
  resolve(outcome: RunOutcome): void;
  reject(error: unknown): void;
}

/**
 * Knows when a run is truly over. On 1.x that is `agent_settled`. 0.73.x has no such event and
 * `agent_end` comes before a retry or auto-compaction is announced, so after `agent_end` (and after
 * a final `auto_retry_end` or a `compaction_end` that will not retry) the tracker sends `get_state`:
 * pi writes any `auto_retry_start`/`compaction_start` in the same tick as `agent_end`, so they reach
 * us before that answer. If nothing started in between and pi is neither streaming nor compacting,
 * the run is over.
 */
export class RunTracker {
  readonly #host: RunTrackerHost;
  readonly #waiters = new Set<Waiter>();
  #running = false;
  #epoch = 0;
  #starts = 0;
  #retrying = false;
  #compacting = false;
  #lastAborted = false;
  #sawEnd = false;
  #settledByState = false;
  #closed: unknown;

  constructor(host: RunTrackerHost) {
    this.#host = host;
  }

  /** True from `agent_start` until the run settles. */
  get running(): boolean {
    return this.#running;
  }

  /** How many `agent_start` events have been seen; lets callers tell whether a run began since a mark. */
  get starts(): number {
    return this.#starts;
  }

  /** Changes whenever a run, retry or compaction starts; take it when sending `get_state`, for {@link noteState}. */
  get epoch(): number {
    return this.#epoch;
  }

  /**
   * Reconciles the tracker with a `get_state` answer to a request sent at `epoch`. When pi is idle
   * (not streaming, not compacting) while a run is still open here, and nothing started since the
   * request was sent, the run is over: it is settled (announced as `inferred` when pi never sent
   * its end). Without this, a 0.73.x run ended by `compact` or `new_session` mid-stream, or a run
   * whose end was lost in a reconnect, would stay running forever.
   */
  noteState(state: SessionState, epoch: number): void {
    if (!this.#running || epoch !== this.#epoch) return;
    if (state.isStreaming || state.isCompacting || this.#retrying || this.#compacting) return;
    const announced = this.#sawEnd;
    const outcome: RunOutcome = announced
      ? { aborted: this.#lastAborted }
      : { aborted: true, inferred: true };
    // On 1.x pi reports idle just before it writes `agent_settled`; that late event is then a repeat.
    this.#settledByState = true;
    this.#settle(outcome);
    if (!announced) this.#host.unannounced?.(outcome);
  }

  /** The connection was replaced: retry and compaction flags may be stale, as their end events may be lost. */
  reconnected(): void {
    this.#retrying = false;
    this.#compacting = false;
  }

  /** Feeds one event. */
  handle(event: RpcEvent): void {
    const v1 = this.#host.versionLine() === "1";
    switch (event.type) {
      case "agent_start":
        this.#running = true;
        this.#sawEnd = false;
        this.#settledByState = false;
        this.#retrying = false;
        this.#epoch++;
        this.#starts++;
        return;
      case "agent_settled":
        if (this.#settledByState && !this.#running) {
          this.#settledByState = false;
          return;
        }
        this.#settle({ aborted: event.aborted === true });
        return;
      case "agent_end":
        this.#sawEnd = true;
        this.#lastAborted = lastAssistantAborted(event.messages);
        if (!v1 && event.willRetry !== true) this.#probe();
        return;
      case "auto_retry_start":
        this.#retrying = true;
        this.#epoch++;
        return;
      case "auto_retry_end":
        this.#retrying = false;
        if (!v1 && !event.success) this.#probe();
        return;
      case "compaction_start":
        this.#compacting = true;
        this.#epoch++;
        return;
      case "compaction_end":
        this.#compacting = false;
        if (!v1 && !event.willRetry) this.#probe();
        return;
      default:
        return;
    }
  }

  /** Registers a wait for the next settle. Register before sending, so a fast finish cannot be missed. */
  watch(): SettleWatch {
    let waiter: Waiter | undefined;
    const promise = new Promise<RunOutcome>((resolve, reject) => {
      waiter = { resolve, reject };
    });
    // The waiter is always assigned: the executor runs synchronously.
    const registered = waiter as Waiter;
    if (this.#closed !== undefined) registered.reject(this.#closed);
    else this.#waiters.add(registered);
    return { promise, cancel: () => this.#waiters.delete(registered) };
  }

  /** Resolves when the current run settles, at once when none is running. */
  waitForSettled(options: WaitOptions = {}): Promise<RunOutcome> {
    if (!this.#running) return Promise.resolve({ aborted: false });
    return bounded(this.watch(), options, "waitForSettled");
  }

  /** Rejects every waiter; used when the transport closes. */
  close(error: unknown): void {
    this.#closed ??= error;
    this.#running = false;
    for (const waiter of [...this.#waiters]) waiter.reject(error);
    this.#waiters.clear();
  }

  #probe(): void {
    const epoch = this.#epoch;
    this.#host.barrier().then(
      (state) => {
        if (epoch !== this.#epoch || this.#retrying || this.#compacting) return;
        if (state.isStreaming || state.isCompacting) return;
        this.#settle({ aborted: this.#lastAborted });
      },
      // A failed barrier means the transport closed or timed out; close() rejects the waiters.
      () => {},
    );
  }

  #settle(outcome: RunOutcome): void {
    const wasRunning = this.#running;
    this.#running = false;
    this.#retrying = false;
    this.#lastAborted = false;
    const waiters = [...this.#waiters];
    this.#waiters.clear();
    for (const waiter of waiters) waiter.resolve(outcome);
    // 0.73.x barriers can fire for a manual compaction with no run; only real runs are announced.
    if (wasRunning || this.#host.versionLine() === "1") this.#host.settled(outcome);
  }
}

function lastAssistantAborted(messages: readonly AgentMessage[]): boolean {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message?.role === "assistant") return message.stopReason === "aborted";
  }
  return false;
}

/** Applies a signal and a timeout to a settle watch. */
export function bounded(
  watch: SettleWatch,
  options: WaitOptions,
  what: string,
): Promise<RunOutcome> {
  const { signal, timeoutMs } = options;
  if (signal === undefined && timeoutMs === undefined) return watch.promise;
  return new Promise<RunOutcome>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const done = (): void => {
      if (timer !== undefined) clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    };
    const onAbort = (): void => {
      done();
      watch.cancel();
      reject(PiClientError.cancelled(what, signal?.reason));
    };
    if (signal?.aborted) {
      onAbort();
      return;
    }
    signal?.addEventListener("abort", onAbort, { once: true });
    if (timeoutMs !== undefined) {
      timer = setTimeout(() => {
        done();
        watch.cancel();
        reject(PiClientError.timeout(what, timeoutMs));
      }, timeoutMs);
    }
    watch.promise.then(
      (outcome) => {
        done();
        resolve(outcome);
      },
      (error: unknown) => {
        done();
        reject(error);
      },
    );
  });
}
