import type { BashExecutionUpdateEvent, BashResult, RpcCommand } from "@pi-kit/protocol";
import type { BashOptions } from "./client-options.ts";
import type { ClientParts } from "./client-parts.ts";
import { opt, throwIfCancelled } from "./commands.ts";
import type { CallOptions } from "./pending-requests.ts";

/** What direct bash calls need of the client besides its parts. */
export interface BashHost
  extends Pick<ClientParts, "hub" | "session" | "tracker" | "capabilities"> {
  /** A fresh command id. */
  newId(): string;
  /** Sends the `bash` command and resolves with its result. */
  request(
    command: RpcCommand & { readonly type: "bash" },
    options: CallOptions,
  ): Promise<BashResult>;
  /** True once the transport has closed. */
  closed(): boolean;
}

/** A direct bash call in flight: its output listener, and whether pi streamed any of it. */
interface BashStream {
  readonly onOutput: ((delta: string) => void) | undefined;
  streamed: boolean;
}

/**
 * Direct `bash` calls: their streamed output, their runs in the session model, and their
 * `bashExecution` messages, which the model builds and then replaces with pi's own copies.
 */
export class BashRuns {
  readonly #host: BashHost;
  readonly #streams = new Map<string, BashStream>();

  constructor(host: BashHost) {
    this.#host = host;
  }

  /** Runs a shell command in pi's cwd; `onOutput` gets this call's streamed output (1.x). */
  async run(command: string, options: BashOptions = {}): Promise<BashResult> {
    const { session, capabilities, tracker } = this.#host;
    const { excludeFromContext, onOutput, ...call } = options;
    throwIfCancelled("bash", call.signal);
    const id = this.#host.newId();
    const stream: BashStream = { onOutput, streamed: false };
    this.#streams.set(id, stream);
    session.bashStarted(id, command);
    let result: BashResult | undefined;
    try {
      result = await this.#host.request(
        { type: "bash", id, command, ...opt({ excludeFromContext }) },
        call,
      );
      if (!stream.streamed && result.output !== "") capabilities.learnBashStreaming(false);
    } finally {
      this.#streams.delete(id);
      session.bashFinished(id, result);
    }
    // pi adds the call to its transcript as a `bashExecution` message (during a run, when the run
    // ends): so does the session model, and then it takes pi's own copy where that is cheap.
    const duringRun = tracker.running;
    session.bashRecorded(id, command, result, excludeFromContext, duringRun);
    if (!duringRun) await this.reconcile();
    return result;
  }

  /** pi streamed some output of a bash call: it streams (1.x), and the call's listener gets it. */
  streamed(event: BashExecutionUpdateEvent): void {
    this.#host.capabilities.learnBashStreaming(true);
    if (event.id === undefined) return;
    const stream = this.#streams.get(String(event.id));
    if (stream !== undefined) stream.streamed = true;
    try {
      stream?.onOutput?.(event.delta);
    } catch (error) {
      this.#host.hub.report({
        kind: "listener_error",
        message: `a bash onOutput callback threw: ${String(error)}`,
        error,
      });
    }
  }

  /**
   * Takes pi's copies of the bash messages the model built, which carry this client's clock.
   * They come with the entries since the cursor, where pi has `get_entries`; on 0.73.x they wait
   * for the next resync. A failure costs only the timestamp, so it is reported, not thrown.
   */
  async reconcile(): Promise<void> {
    if (!this.#host.capabilities.current.supports("get_entries")) return;
    try {
      await this.#host.session.resync();
    } catch (error) {
      if (this.#host.closed()) return;
      this.#host.hub.report({
        kind: "resync_failed",
        message: `reading pi's copy of a bash message failed: ${String(error)}`,
        error,
      });
    }
  }
}
