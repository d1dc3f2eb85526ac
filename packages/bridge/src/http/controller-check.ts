/**
 * What only the socket in control of a session may do over HTTP (undo, upload): the caller proves
 * control by naming its socket (`bridge_control`'s `you.id`) in the `X-Pi-Kit-Connection` header.
 */
import { CONTROLLER_CONNECTION_HEADER } from "@pi-kit/protocol/bridge";
import type { Context } from "hono";
import { BridgeError, BridgeErrorCode } from "../errors/bridge-error.ts";
import type { Session } from "../sessions/session.ts";

/** Throws `not_controller` unless the request names the socket in control of `session`; `doing` says what it wanted to do. */
export function assertController(c: Context, session: Session | undefined, doing: string): void {
  const named = c.req.header(CONTROLLER_CONNECTION_HEADER);
  const controller = session?.alive ? session.controllerId : undefined;
  if (controller === undefined || named === undefined || named.trim() !== String(controller))
    throw new BridgeError(
      BridgeErrorCode.NotController,
      `Only the socket in control may ${doing}: name it in ${CONTROLLER_CONNECTION_HEADER} (bridge_control's you.id)`,
    );
}
