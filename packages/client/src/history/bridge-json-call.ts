/**
 * One JSON call to a bridge's HTTP API with `fetch`: the bearer token, the `AbortSignal`, and
 * every failure as a typed {@link SessionHistoryError}. The history and changes APIs share it.
 */
import { CONTROLLER_CONNECTION_HEADER } from "@pi-kit/protocol/bridge";
import { type BridgeToken, resolveToken } from "../transports/websocket/protocols.ts";
import { codeForStatus, SessionHistoryError, SessionHistoryErrorCode } from "./history-error.ts";

/** One request to a bridge's HTTP API. */
export interface BridgeJsonRequest {
  readonly fetch: typeof fetch;
  /** The full URL. */
  readonly url: string;
  readonly method: string;
  /** Sent as JSON when given. */
  readonly body?: unknown;
  /** Sent as is (`application/octet-stream`) when given, in place of `body`: an upload's bytes. */
  readonly raw?: Blob;
  readonly token: BridgeToken | undefined;
  /**
   * The caller's socket on the session (`bridge_control`'s `you.id`), sent as
   * `X-Pi-Kit-Connection` to prove control: what only the controller may do (undo, upload).
   */
  readonly controller?: number | undefined;
  readonly signal: AbortSignal | undefined;
}

/** Makes `request`; resolves the JSON body (`undefined` for 204), rejects with a typed error. */
export async function bridgeJsonCall(request: BridgeJsonRequest): Promise<unknown> {
  const { body, raw, signal } = request;
  const headers: Record<string, string> = { accept: "application/json" };
  if (request.controller !== undefined)
    headers[CONTROLLER_CONNECTION_HEADER] = String(request.controller);
  if (raw !== undefined) headers["content-type"] = "application/octet-stream";
  else if (body !== undefined) headers["content-type"] = "application/json";
  if (request.token !== undefined) {
    try {
      headers.authorization = `Bearer ${await resolveToken(request.token)}`;
    } catch (error) {
      throw new SessionHistoryError(
        SessionHistoryErrorCode.Unauthorized,
        "The token function failed",
        { cause: error },
      );
    }
  }
  let response: Response;
  try {
    response = await request.fetch(request.url, {
      method: request.method,
      headers,
      ...(raw !== undefined
        ? { body: raw }
        : body === undefined
          ? {}
          : { body: JSON.stringify(body) }),
      ...(signal === undefined ? {} : { signal }),
    });
  } catch (error) {
    if (signal?.aborted) throw cancelled(signal);
    throw new SessionHistoryError(
      SessionHistoryErrorCode.Network,
      `Cannot reach the bridge at ${request.url}`,
      { cause: error },
    );
  }
  let parsed: unknown;
  try {
    parsed = response.status === 204 ? undefined : await response.json();
  } catch (error) {
    if (signal?.aborted) throw cancelled(signal);
    if (!response.ok) parsed = undefined;
    else throw badResponse("body", response.status, error);
  }
  if (response.ok) return parsed;
  const fields =
    typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : {};
  const message = typeof fields.error === "string" ? fields.error : `HTTP ${response.status}`;
  const { error: _, code: __, ...details } = fields;
  throw new SessionHistoryError(codeForStatus(response.status), message, {
    status: response.status,
    ...(typeof fields.code === "string" ? { hostCode: fields.code } : {}),
    ...(Object.keys(details).length > 0 ? { details } : {}),
  });
}

function cancelled(signal: AbortSignal): SessionHistoryError {
  return new SessionHistoryError(SessionHistoryErrorCode.Cancelled, "The call was cancelled", {
    cause: signal.reason,
  });
}

/** The error for an answer without a valid `what`. */
export function badResponse(what: string, status?: number, cause?: unknown): SessionHistoryError {
  return new SessionHistoryError(
    SessionHistoryErrorCode.BadResponse,
    `The bridge's answer has no valid ${what}`,
    { ...(status === undefined ? {} : { status }), ...(cause === undefined ? {} : { cause }) },
  );
}
