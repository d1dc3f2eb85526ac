import type { PiClient, SessionModel, SessionSnapshot } from "@pi-kit/client";
import { useSyncExternalStore } from "react";

const noSubscription = (): (() => void) => () => {};
const nothing = (): undefined => undefined;

/**
 * The session's current snapshot (messages, streaming message, queue, run state, dialogs…),
 * re-rendering the component when it changes, through `useSyncExternalStore` over the client's
 * session model. Takes a client or a session model; `undefined` gives `undefined`, as does a
 * server render.
 *
 * @example
 * ```tsx
 * const session = usePiSession(client);
 * return <p>{session?.isRunning ? "pi is working…" : `${session?.messages.length ?? 0} messages`}</p>;
 * ```
 */
export function usePiSession(
  source: PiClient | SessionModel | undefined,
): SessionSnapshot | undefined {
  const model = source === undefined || "getSnapshot" in source ? source : source.session;
  return useSyncExternalStore(
    model?.subscribe ?? noSubscription,
    model?.getSnapshot ?? nothing,
    nothing,
  );
}
