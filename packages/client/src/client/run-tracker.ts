import type { AgentMessage, RpcEvent, SessionState } from "@pi-kit/protocol";
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

/** What the tracker needs from the client. */
export interface RunTrackerHost {
  /** Whether pi announces a run's end with `agent_settled`; without it the tracker probes. */
  announcesSettled(): boolean;
  /** A `get_state` round trip, used as an ordering barrier when pi does not announce the end. */
  barrier(): Promise<SessionState>;
  /** Called once per settled run. */
  settled(outcome: RunOutcome): void;
  /** Told when a run was settled from `get_state` because pi never announced its end. */
  unannounced?(outcome: RunOutcome): void;
}

interface Waiter {
  /** Resolved once this many runs have settled. */
  readonly run: number;
  resolve(outcome: RunOutcome): void;
  reject(error: unknown): void;
}

/**
 * Knows when a run is truly over, and which run a wait is for. Runs are numbered by their
 * `agent_start`; a prompt pi answered as `started` opens the next run at once, because pi writes
 * that answer before `agent_start` and a wait right after the prompt must wait for that run.
 *
 * The end is `agent_settled` where pi sends it (0.80 on). Without it (0.73.x) `agent_end` comes
 * before a retry or auto-compaction is announced, so after `agent_end` (and after a final
 * `auto_retry_end` or a `compaction_end` that will not retry) the tracker sends `get_state`: pi
 * writes any `auto_retry_start`/`compaction_start` in the same tick as `agent_end`, so they reach
 * us before that answer. If nothing started in between and pi is neither streaming nor compacting,
 * the run is over. Whether it was aborted is `agent_settled.aborted` (pi 1.1 on), else the last
 * assistant message's `stopReason`.
 */
export class RunTracker {
  readonly #host: RunTrackerHost;
  readonly #waiters = new Set<Waiter>();
  #running = false;
  // A prompt was answered `started`; its `agent_start` has not been read yet.
  #pending = false;
  #epoch = 0;
  #starts = 0;
  #settledRuns = 0;
  #lastOutcome: RunOutcome = { aborted: false };
  #retrying = false;
  #compacting = false;
  #lastAborted = false;
  #sawEnd = false;
  #settledByState = false;
  #closed: unknown;

  constructor(host: RunTrackerHost) {
    this.#host = host;
  }

  /** True from the moment pi accepted a run until it settles. */
  get running(): boolean {
    return this.#running || this.#pending;
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
   * pi accepted a prompt that starts a run; `startsBefore` is {@link starts} from before it was
   * sent. Unless that run's `agent_start` was already read, the run counts as open from now on.
   */
  expectRun(startsBefore: number): void {
    if (this.#starts > startsBefore || this.#pending || this.#closed !== undefined) return;
    this.#pending = true;
    this.#epoch++;
  }

  /**
   * Reconciles the tracker with a `get_state` answer to a request sent at `epoch`. When pi is idle
   * (not streaming, not compacting) while a run is still open here, and nothing started since the
   * request was sent, the run is over: it is settled (announced as `inferred` when pi never sent
   * its end). Without this, a 0.73.x run ended by `compact` or `new_session` mid-stream, or a run
   * whose end was lost in a reconnect, would stay running forever.
   */
  noteState(state: SessionState, epoch: number): void {
    if (!this.running || epoch !== this.#epoch) return;
    if (state.isStreaming || state.isCompacting || this.#retrying || this.#compacting) return;
    const announced = this.#sawEnd;
    const outcome: RunOutcome = announced
      ? { aborted: this.#lastAborted }
      : { aborted: true, inferred: true };
    // pi reports idle just before it writes `agent_settled`; that late event is then a repeat.
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
    const announces = this.#host.announcesSettled();
    switch (event.type) {
      case "agent_start":
        this.#running = true;
        this.#pending = false;
        this.#sawEnd = false;
        this.#settledByState = false;
        this.#retrying = false;
        this.#epoch++;
        this.#starts++;
        return;
      case "agent_settled":
        if (this.#settledByState && !this.running) {
          this.#settledByState = false;
          return;
        }
        this.#settle({
          aborted: typeof event.aborted === "boolean" ? event.aborted : this.#lastAborted,
        });
        return;
      case "message_end":
        if (event.message.role === "assistant") {
          this.#lastAborted = event.message.stopReason === "aborted";
        }
        return;
      case "agent_end":
        this.#sawEnd = true;
        this.#lastAborted = lastAssistantAborted(event.messages) ?? this.#lastAborted;
        if (!announces && event.willRetry !== true) this.#probe();
        return;
      case "auto_retry_start":
        this.#retrying = true;
        this.#epoch++;
        return;
      case "auto_retry_end":
        this.#retrying = false;
        if (!announces && !event.success) this.#probe();
        return;
      case "compaction_start":
        this.#compacting = true;
        this.#epoch++;
        return;
      case "compaction_end":
        this.#compacting = false;
        if (!announces && !event.willRetry) this.#probe();
        return;
      default:
        return;
    }
  }

  /**
   * Resolves with the outcome once run number `run` (counted by `agent_start`, see
   * {@link starts}) has settled; at once, with the latest outcome, when it already has.
   */
  waitForRun(run: number, options: WaitOptions = {}, what = "waitForSettled"): Promise<RunOutcome> {
    if (this.#closed !== undefined) return Promise.reject(this.#closed);
    if (this.#settledRuns >= run) return Promise.resolve(this.#lastOutcome);
    const { signal, timeoutMs } = options;
    if (signal?.aborted) return Promise.reject(PiClientError.cancelled(what, signal.reason));
    return new Promise<RunOutcome>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const done = (): void => {
        this.#waiters.delete(waiter);
        if (timer !== undefined) clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
      };
      const waiter: Waiter = {
        run,
        resolve: (outcome) => {
          done();
          resolve(outcome);
        },
        reject: (error) => {
          done();
          reject(error);
        },
      };
      const onAbort = (): void => waiter.reject(PiClientError.cancelled(what, signal?.reason));
      this.#waiters.add(waiter);
      signal?.addEventListener("abort", onAbort, { once: true });
      if (timeoutMs !== undefined) {
        timer = setTimeout(() => waiter.reject(PiClientError.timeout(what, timeoutMs)), timeoutMs);
      }
    });
  }

  /**
   * Resolves when the open run settles (the run a prompt just started counts as open), at once
   * when none is.
   */
  waitForSettled(options: WaitOptions = {}): Promise<RunOutcome> {
    if (!this.running) return Promise.resolve({ aborted: false });
    return this.waitForRun(this.#pending ? this.#starts + 1 : this.#starts, options);
  }

  /** Rejects every waiter, and every later wait; used when the transport closes. */
  close(error: unknown): void {
    this.#closed ??= error;
    this.#running = false;
    this.#pending = false;
    for (const waiter of [...this.#waiters]) waiter.reject(error);
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
    const wasRunning = this.running;
    // A run pi accepted but never announced the start of (it failed before its first turn).
    if (this.#pending) this.#starts++;
    this.#running = false;
    this.#pending = false;
    this.#retrying = false;
    this.#lastAborted = false;
    this.#settledRuns = this.#starts;
    this.#lastOutcome = outcome;
    for (const waiter of [...this.#waiters]) {
      if (waiter.run <= this.#settledRuns) waiter.resolve(outcome);
    }
    // Without `agent_settled`, barriers can fire for a manual compaction with no run; only real
    // runs are announced then.
    if (wasRunning || this.#host.announcesSettled()) this.#host.settled(outcome);
  }
}

/** Whether the last assistant message stopped by abort; `undefined` when there is none. */
function lastAssistantAborted(messages: readonly AgentMessage[]): boolean | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message?.role === "assistant") return message.stopReason === "aborted";
  }
  return undefined;
}
