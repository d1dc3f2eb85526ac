/**
 * `PiClient.connect`'s handshake: pi answers `get_state` (readiness, no sleeps), its capabilities
 * are probed, and the session is loaded, under one time limit; a bridge that is down fails it at
 * once. Whatever fails, the client is closed behind it and the error names `connect`.
 */
import { isReconnectingTransport, type Transport } from "../transports/transport.ts";
import type { ConnectOptions } from "./client-options.ts";
import { throwIfCancelled } from "./commands.ts";
import { PiClientError } from "./errors.ts";
import { watchFirstConnection } from "./first-connection.ts";
import type { CallOptions } from "./pending-requests.ts";

/** What the handshake does with the client being connected. */
export interface HandshakeSteps {
  /** Asks pi for its state: its answer means it is ready. */
  readonly getState: (options: CallOptions) => Promise<unknown>;
  /** Probes pi's capabilities; `undefined` when the options gave them. */
  readonly detect: ((options: CallOptions) => Promise<unknown>) | undefined;
  /** Loads the session's transcript and flags. */
  readonly resync: () => Promise<unknown>;
  /** Closes the client (and its transport) after a failure. */
  readonly close: () => Promise<unknown>;
}

/** Runs the handshake over `transport`; rejects with a `PiClientError` whose command is `connect`. */
export async function handshake(
  transport: Transport,
  options: ConnectOptions,
  steps: HandshakeSteps,
): Promise<void> {
  const limitMs = options.handshakeTimeoutMs ?? 60_000;
  const deadline = new AbortController();
  const timer = setTimeout(
    () => deadline.abort(PiClientError.timeout("connect", limitMs, "pi to answer the handshake")),
    limitMs,
  );
  // A bridge that is down fails connect at once, not after the handshake's timeout.
  const first = watchFirstConnection(transport);
  const signal = AbortSignal.any(
    [options.signal, deadline.signal, first.signal].filter((s) => s !== undefined),
  );
  let step = "the handshake";
  try {
    throwIfCancelled("connect", options.signal);
    // The handshake's own limit bounds its calls, not the quick commands' default.
    await steps.getState({ signal, timeoutMs: limitMs });
    first.stop();
    await steps.detect?.({ signal, timeoutMs: limitMs });
    clearTimeout(timer);
    step = "loading the session";
    if (options.resync ?? isReconnectingTransport(transport)) await steps.resync();
  } catch (error) {
    clearTimeout(timer);
    first.stop();
    void steps.close().catch(() => {});
    if (first.signal.aborted) throw first.signal.reason;
    if (deadline.signal.aborted) throw deadline.signal.reason;
    if (options.signal?.aborted) throw PiClientError.cancelled("connect", options.signal.reason);
    throw PiClientError.forCall("connect", error, step);
  }
}
