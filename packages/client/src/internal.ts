/**
 * @module
 * Unstable: what pi-kit's own packages share beyond the public API (`@pi-kit/elements` reconnects
 * its `src` attribute with the client's backoff). It may change in any release, minor or patch;
 * do not import it from an application.
 */
export {
  type Backoff,
  backoffDelay,
  DEFAULT_BACKOFF,
  resolveBackoff,
} from "./transports/websocket/backoff.ts";
