/**
 * What the editor is told when something fails: a JSON-RPC error with the cause in words and the
 * typed code of pi-kit's error in `data`, never a crash.
 */
import { RequestError } from "@agentclientprotocol/sdk";
import { PiClientError, SessionHistoryError } from "@pi-kit/client";

/** `error` as the JSON-RPC error answering a request. */
export function requestError(error: unknown): RequestError {
  if (error instanceof RequestError) return error;
  if (error instanceof SessionHistoryError) {
    const data = {
      code: error.code,
      ...(error.status === undefined ? {} : { status: error.status }),
    };
    // No status: the request never left, because the token file or ticket command failed.
    if (error.code === "unauthorized" && error.status === undefined) {
      return RequestError.authRequired(data, `no token for the bridge: ${causeOf(error)}`);
    }
    if (error.code === "unauthorized" || error.code === "forbidden") {
      return RequestError.authRequired(data, `the bridge refused the token: ${error.message}`);
    }
    return RequestError.internalError(data, `the bridge's history API failed: ${error.message}`);
  }
  if (error instanceof PiClientError) {
    const data = {
      code: error.code,
      ...(error.bridgeCode === undefined ? {} : { bridgeCode: error.bridgeCode }),
    };
    if (error.closeCode === 4401 || error.closeCode === 4403) {
      return RequestError.authRequired(data, `the bridge refused the connection: ${error.message}`);
    }
    return RequestError.internalError(data, `pi: ${error.message}`);
  }
  const message = error instanceof Error ? error.message : String(error);
  return RequestError.internalError(undefined, message);
}

/** What caused `error`, in words (its own message when it has no cause). */
function causeOf(error: Error): string {
  return error.cause instanceof Error ? error.cause.message : error.message;
}
