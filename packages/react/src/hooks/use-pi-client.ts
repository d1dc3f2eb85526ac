import type { PiClient } from "@pi-kit/client";
import { type DependencyList, useEffect, useState } from "react";

/** What {@link usePiClient} has: the client once connected, or the error connecting threw. */
export interface PiClientState {
  /** The connected client; `undefined` while connecting, after an error, and on the server. */
  readonly client: PiClient | undefined;
  /** Why connecting failed, if it did. */
  readonly error: unknown;
}

/**
 * Connects a client for as long as the component is mounted: calls `connect` after mount (never
 * during a server render), closes the client on unmount or when `deps` change, and aborts
 * `signal` when a connection is no longer wanted (React's development double mount included).
 *
 * @example
 * ```tsx
 * const { client, error } = usePiClient(
 *   (signal) => PiClient.connect(createWebSocketTransport({ url, token, signal })),
 *   [url, token],
 * );
 * ```
 */
export function usePiClient(
  connect: (signal: AbortSignal) => PiClient | Promise<PiClient>,
  deps: DependencyList = [],
): PiClientState {
  const [state, setState] = useState<PiClientState>(NOT_CONNECTED);
  useEffect(() => {
    const abort = new AbortController();
    let client: PiClient | undefined;
    setState(NOT_CONNECTED);
    (async () => {
      try {
        client = await connect(abort.signal);
        if (abort.signal.aborted) void client.close();
        else setState({ client, error: undefined });
      } catch (error) {
        if (!abort.signal.aborted) setState({ client: undefined, error });
      }
    })();
    return () => {
      abort.abort();
      void client?.close();
    };
    // biome-ignore lint/correctness/useExhaustiveDependencies: the caller's `deps` say when to reconnect, as useEffect's do.
  }, deps);
  return state;
}

const NOT_CONNECTED: PiClientState = { client: undefined, error: undefined };
