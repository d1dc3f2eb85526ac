import { createContext } from "@lit/context";
import type { PiClient, SessionModel } from "@pi-kit/client";

/**
 * What a `<pi-provider>` hands to the elements below it: the client (for actions) and its session
 * model (for state). A string key, so two copies of this package on one page still interoperate.
 */
export interface PiConnection {
  /** Sends prompts, aborts, clears the queue; absent for a read-only view of a session model. */
  readonly client: PiClient | undefined;
  /** The state to render. */
  readonly session: SessionModel;
}

/** The `@lit/context` key under which `<pi-provider>` provides a {@link PiConnection}. */
export const piConnectionContext = createContext<PiConnection | undefined>("pi-kit/connection");

/** Builds the connection for a client or a bare session model (a client wins). */
export function connectionOf(
  client: PiClient | undefined,
  session: SessionModel | undefined,
): PiConnection | undefined {
  if (client !== undefined) return { client, session: client.session };
  if (session !== undefined) return { client: undefined, session };
  return undefined;
}
