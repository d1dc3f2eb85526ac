/**
 * `GET /sessions/:name/ws`: the WebSocket upgrade that attaches a client to a session. A session
 * whose pi is not running (never started here, stopped, exited or crashed) is resumed from its
 * files; an unknown one is created unless `autoCreate` is off (or the holder may only watch).
 */
import { PROTOCOL_V1, TicketRefusal } from "@pi-kit/protocol/bridge";
import type { Context, Handler } from "hono";
import { BridgeError, BridgeErrorCode } from "../errors/bridge-error.ts";
import { upgradesToWebSocket } from "../headers/header-list.ts";
import type { BridgeHistory } from "../history/bridge-history.ts";
import { type BridgeLogger, logLabel, originLabel, safeLog } from "../logging/logger.ts";
import { ClusterRefusalError } from "../placement/owned-elsewhere.ts";
import type { Access } from "../principals/access.ts";
import { sessionKey } from "../principals/owner.ts";
import { SESSION_NAME_RULE } from "../principals/session-name.ts";
import type { CommandPolicy } from "../security/command-policy.ts";
import { TICKET_CLOCK_TOLERANCE_S } from "../security/tickets.ts";
import { offeredProtocols } from "../security/token.ts";
import { VIEWER_KEY, VIEWER_KEY_RULE, viewerIdentity } from "../sessions/control-memory.ts";
import { isSessionName, type SessionRegistry } from "../sessions/session-registry.ts";
import { type RelayLimits, relayEvents } from "../ws/relay.ts";
import type { WebSocketRuntime } from "../ws/runtime.ts";
import type { Refuse } from "./refusal.ts";

/** What the upgrade route needs from the bridge. */
export interface UpgradeRouteOptions {
  readonly registry: SessionRegistry;
  /** The history of a principal (see `PrincipalStores`). */
  readonly historyOf: (owner: string) => BridgeHistory;
  /** What the authenticated request may reach. */
  readonly accessOf: (c: Context) => Access;
  /** The caller's `Origin` (a forwarded socket's is the one its first node saw). */
  readonly originOf: (c: Context) => string | undefined;
  /** Whether an unknown session is created (else 404). */
  readonly autoCreate: boolean;
  readonly runtime: WebSocketRuntime;
  readonly policy: CommandPolicy;
  readonly limits: RelayLimits;
  readonly logger: BridgeLogger;
  readonly refuse: Refuse;
  /** Cluster mode: the answer to a socket for a session this node may not run (forward it). */
  readonly forward?: (
    c: Context,
    error: ClusterRefusalError,
    protocol: typeof PROTOCOL_V1 | undefined,
    access: Access,
    reclaim?: () => Promise<Response>,
  ) => Promise<Response>;
}

/** The handler of `GET /sessions/:name/ws`. */
export function upgradeRoute(options: UpgradeRouteOptions): Handler {
  const { refuse, logger } = options;
  // `reclaimed`: a second pass, after a forward waited for the owner's lease to run out.
  const handle = async (c: Context, reclaimed: boolean): Promise<Response> => {
    if (!upgradesToWebSocket(c.req.raw.headers)) {
      return refuse(c, 426, "Expected a WebSocket upgrade", BridgeErrorCode.UpgradeRequired);
    }
    const offered = offeredProtocols(c.req.raw.headers);
    const protocol = offered.includes(PROTOCOL_V1) ? PROTOCOL_V1 : undefined;
    // Browsers insist the server echo one offered entry, and the token entry must never be it.
    if (offered.length > 0 && protocol === undefined) {
      return refuse(c, 400, `Offer the ${PROTOCOL_V1} subprotocol`, BridgeErrorCode.InvalidRequest);
    }
    const name = c.req.param("name") ?? "";
    const access = options.accessOf(c);
    // The name first: only a valid name makes a key, so no spelling reaches another owner's.
    if (!isSessionName(name)) {
      return refuse(c, 400, SESSION_NAME_RULE, BridgeErrorCode.InvalidSessionName);
    }
    if (!access.allows(name)) {
      return refuse(c, 403, "The ticket does not open this session", TicketRefusal.NotInTicket);
    }
    const viewer = c.req.query("viewer");
    if (viewer !== undefined && !VIEWER_KEY.test(viewer)) {
      return refuse(c, 400, VIEWER_KEY_RULE, BridgeErrorCode.InvalidRequest);
    }
    let session = options.registry.get(sessionKey(access.owner, name));
    if (session?.alive !== true) {
      try {
        const create = options.autoCreate && !access.readOnly;
        session = (await options.historyOf(access.owner).open(name, create)).session;
      } catch (error) {
        if (error instanceof ClusterRefusalError && options.forward !== undefined)
          return options.forward(
            c,
            error,
            protocol,
            access,
            reclaimed ? undefined : () => handle(c, true),
          );
        if (!(error instanceof BridgeError)) {
          safeLog(logger, {
            event: "history_error",
            operation: `open of ${logLabel(name, 64)}`,
            error: String(error),
          });
          return refuse(c, 500, "Internal error", BridgeErrorCode.Internal);
        }
        const { status } = error;
        // Opening a session answers none of the upload API's 413s and 429s; a gateway's are ours.
        if (status === 502 || status === 504 || status === 413 || status === 429)
          return refuse(c, 500, error.message, error.code);
        return refuse(c, status, error.message, error.code);
      }
    }
    const events = relayEvents({
      session,
      runtime: options.runtime,
      policy: options.policy,
      limits: options.limits,
      logger,
      origin: originLabel(options.originOf(c)),
      readOnly: access.readOnly,
      ...(access.expiresAt === undefined
        ? {}
        : { closeAt: access.expiresAt + TICKET_CLOCK_TOLERANCE_S * 1000 }),
      label: c.req.query("label"),
      ...(viewer === undefined ? {} : { viewer: viewerIdentity(access.owner, viewer) }),
    });
    return options.runtime.upgrade(c, events, protocol);
  };
  return (c) => handle(c, false);
}
