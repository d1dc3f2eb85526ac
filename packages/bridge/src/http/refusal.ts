/**
 * How the bridge refuses a request: a status and a typed `code`, as a JSON body `{error, code}`
 * and a header, or for a pi-kit client's WebSocket handshake as a close code and reason (a browser
 * hides HTTP statuses from scripts, so it gets the upgrade and, at once, a close that says why).
 */

import type { TicketRefusal } from "@pi-kit/protocol/bridge";
import {
  BridgeCloseCode,
  PROTOCOL_V1,
  REFUSAL_CODE_HEADER,
  refusalReason,
} from "@pi-kit/protocol/bridge";
import type { Context } from "hono";
import { BridgeErrorCode } from "../errors/bridge-error.ts";
import { upgradesToWebSocket } from "../headers/header-list.ts";
import { type BridgeLogger, logLabel, originLabel, safeLog } from "../logging/logger.ts";
import type { BridgeMetrics } from "../metrics/bridge-metrics.ts";
import type { ClusterRefusalCode } from "../placement/owned-elsewhere.ts";
import { offeredProtocols } from "../security/token.ts";
import type { WebSocketRuntime } from "../ws/runtime.ts";

/** The close code that says why a pi-kit client's handshake was refused, by HTTP status. */
const REFUSAL_CLOSE_CODES: Partial<Record<number, BridgeCloseCode>> = {
  400: BridgeCloseCode.BadRequest,
  401: BridgeCloseCode.Unauthorized,
  403: BridgeCloseCode.Forbidden,
  404: BridgeCloseCode.NoSuchSession,
  409: BridgeCloseCode.Conflict,
  500: BridgeCloseCode.InternalError,
  503: BridgeCloseCode.TryAgainLater,
};

/** The statuses a refusal may have. */
export type RefusalStatus = 400 | 401 | 403 | 404 | 409 | 426 | 500 | 503;

/** Refuses a request with its status, a reason for people and a typed `code` for programs. */
export type Refuse = (
  c: Context,
  status: RefusalStatus,
  reason: string,
  code: TicketRefusal | BridgeErrorCode | ClusterRefusalCode,
) => Response | Promise<Response>;

/** True for a WebSocket handshake that offers the `pi-kit.v1` subprotocol. */
function offersPiKit(c: Context): boolean {
  return (
    upgradesToWebSocket(c.req.raw.headers) &&
    offeredProtocols(c.req.raw.headers).includes(PROTOCOL_V1)
  );
}

/** The {@link Refuse} of a bridge: it logs each refusal and upgrades a pi-kit client to close it. */
export function createRefusal(
  runtime: WebSocketRuntime,
  logger: BridgeLogger,
  metrics?: Pick<BridgeMetrics, "refusals">,
): Refuse {
  return async (c, status, reason, code) => {
    metrics?.refusals.inc({ code });
    const name = c.req.param("name");
    safeLog(logger, {
      event: "connection_rejected",
      status,
      reason,
      code,
      ...(name === undefined ? {} : { session: logLabel(name, 64) }),
      origin: originLabel(c.req.header("origin")),
    });
    // Nothing else passes on the socket a refused pi-kit client gets; other clients get the status.
    const closeCode = REFUSAL_CLOSE_CODES[status];
    // A handshake the runtime could not complete cannot carry a close either.
    if (closeCode !== undefined && code !== BridgeErrorCode.UpgradeFailed && offersPiKit(c)) {
      try {
        return await runtime.upgrade(
          c,
          { onOpen: (_event, ws) => ws.close(closeCode, refusalReason(reason, code)) },
          PROTOCOL_V1,
        );
      } catch {
        // The runtime cannot upgrade this request at all: the status below says why instead.
      }
    }
    // Node's server drops the body of a refused upgrade; a header survives every runtime.
    c.header(REFUSAL_CODE_HEADER, code);
    return c.json({ error: reason, code }, status);
  };
}
