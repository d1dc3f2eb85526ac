import type { ProtocolError } from "@pi-kit/protocol";
import type { TransportCloseInfo } from "../transports/transport.ts";
import { WebSocketCloseError } from "../transports/websocket/connection-state.ts";

/** Machine-readable kinds of {@link PiClientError}. */
export const PiClientErrorCode = {
  /** pi answered the command with `success: false`; `message` is pi's error text. */
  RpcFailed: "rpc_failed",
  /** The call's timeout elapsed before pi answered. */
  Timeout: "timeout",
  /** The call's `AbortSignal` fired before pi answered. */
  Cancelled: "cancelled",
  /** The transport closed (pi exited, the stream ended or failed) while the call was pending. */
  TransportClosed: "transport_closed",
  /**
   * The connection dropped after the command was sent and the transport reconnected: its answer is
   * lost and pi may or may not have run it. Retrying is safe for queries, a judgement call otherwise.
   */
  ConnectionLost: "connection_lost",
  /** pi sent something that does not follow the protocol. */
  Protocol: "protocol",
  /** The connected pi does not implement the command (`get_tree` on 0.73.x; pi answered `Unknown command`). */
  Unsupported: "unsupported",
  /** The command failed client-side validation and was never sent. */
  InvalidCommand: "invalid_command",
  /**
   * The bridge refused the command because this connection watches the session (another one
   * controls it, or the connection is read-only); pi never saw it. Take control first.
   */
  NotInControl: "not_in_control",
  /**
   * `PiClient.connect` over a reconnecting transport: its first attempt failed before a socket
   * opened, because the bridge is down or unreachable (`closeCode` 1006) or refused for now (1013
   * with `bridgeCode` `too_many_sessions` or `closing`). The transport is closed; connect again
   * later (`<pi-chat src>` does, with backoff).
   */
  BridgeUnreachable: "bridge_unreachable",
} as const;
/** Machine-readable kinds of {@link PiClientError}. */
export type PiClientErrorCode = (typeof PiClientErrorCode)[keyof typeof PiClientErrorCode];

/** Options for {@link PiClientError}. */
export interface PiClientErrorOptions {
  /** The command type the failure belongs to, when there is one. */
  command?: string;
  /** Why the transport closed, for `transport_closed`. */
  closeInfo?: TransportCloseInfo;
  /** The underlying error or abort reason. */
  cause?: unknown;
}

/**
 * The one error type `PiClient` rejects with. Switch on `code`; `command` names the failed command.
 * @example
 * try { await client.fork(id); } catch (e) { if (e instanceof PiClientError && e.code === "rpc_failed") show(e.message); }
 */
export class PiClientError extends Error {
  /** What went wrong. */
  readonly code: PiClientErrorCode;
  /** The command type the failure belongs to. */
  readonly command: string | undefined;
  /** Why the transport closed (exit code, signal, stderr tail), for `transport_closed`. */
  readonly closeInfo: TransportCloseInfo | undefined;
  /**
   * The bridge's code for why it closed or refused the connection, for `transport_closed` over
   * the WebSocket transport: `wrong_token`, `missing_token`, `origin_not_allowed`,
   * `ticket_expired`, `too_many_sessions`, `unknown_session`, ... (see the bridge's README).
   */
  readonly bridgeCode: string | undefined;
  /** The WebSocket close code of the connection's last socket (4401, 4403, 1006, ...), when it had one. */
  readonly closeCode: number | undefined;
  /** The bridge's words for why it closed the connection (or the raw close reason). */
  readonly closeReason: string | undefined;

  constructor(code: PiClientErrorCode, message: string, options: PiClientErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "PiClientError";
    this.code = code;
    this.command = options.command;
    this.closeInfo = options.closeInfo;
    // Lifted from the transport's error, so a caller needs no walk down the causes.
    const close = options.closeInfo?.error;
    const socket = close instanceof WebSocketCloseError ? close : undefined;
    this.bridgeCode = socket?.bridgeCode;
    this.closeCode = socket?.code;
    this.closeReason = socket === undefined ? undefined : (socket.detail ?? socket.reason);
  }

  /** pi answered `success: false`; the message is pi's own text, unchanged. */
  static rpcFailed(command: string, piMessage: string): PiClientError {
    return new PiClientError(PiClientErrorCode.RpcFailed, piMessage, { command });
  }

  /** The bridge refused `command` from a watching connection; `bridgeMessage` is its text. */
  static notInControl(command: string, bridgeMessage: string): PiClientError {
    return new PiClientError(PiClientErrorCode.NotInControl, `${command}: ${bridgeMessage}`, {
      command,
    });
  }

  /** No answer within `ms` milliseconds; `waitingFor` says for what, when the call name does not. */
  static timeout(command: string, ms: number, waitingFor?: string): PiClientError {
    const what = waitingFor === undefined ? "" : ` waiting for ${waitingFor}`;
    return new PiClientError(
      PiClientErrorCode.Timeout,
      `${command} timed out after ${ms} ms${what}`,
      { command },
    );
  }

  /** The caller's signal aborted the call; `reason` is the signal's reason. */
  static cancelled(command: string, reason?: unknown): PiClientError {
    return new PiClientError(PiClientErrorCode.Cancelled, `${command} was cancelled`, {
      command,
      cause: reason,
    });
  }

  /** The transport closed; the message carries the exit code, signal and stderr tail when known. */
  static transportClosed(info: TransportCloseInfo | undefined, command?: string): PiClientError {
    const parts: string[] = [];
    if (info?.exitCode !== undefined && info.exitCode !== null)
      parts.push(`exit code ${info.exitCode}`);
    if (info?.signal) parts.push(`signal ${info.signal}`);
    let message = `pi transport closed (${info?.reason ?? "closed"}${parts.length > 0 ? `, ${parts.join(", ")}` : ""})`;
    if (info?.error instanceof WebSocketCloseError) message += `: ${info.error.message}`;
    if (command !== undefined) message = `${command} failed: ${message}`;
    const tail = info?.stderrTail?.trim();
    if (tail) message += `\nstderr:\n${tail}`;
    return new PiClientError(PiClientErrorCode.TransportClosed, message, {
      ...(command === undefined ? {} : { command }),
      ...(info === undefined ? {} : { closeInfo: info }),
      cause: info?.error,
    });
  }

  /** The connection carrying the command dropped before pi's answer arrived; the transport has reconnected. */
  static connectionLost(command: string): PiClientError {
    return new PiClientError(
      PiClientErrorCode.ConnectionLost,
      `${command}: the connection dropped before pi answered; it may or may not have run`,
      { command },
    );
  }

  /**
   * `error`, as the error of the call the user made (`promptAndWait`, `connect`, `fork`) when it
   * came from a step the client took inside it (a barrier, a reload, the prompt itself): the
   * message names `call` (and `step`, when given), the code and close info stay, and the step's
   * error is the `cause`. An error that already names `call`, and pi's own `rpc_failed` text, are
   * returned as they are.
   */
  static forCall(call: string, error: unknown, step?: string): PiClientError {
    const doing = step === undefined ? "" : `${step} failed: `;
    if (!(error instanceof PiClientError)) {
      return new PiClientError(PiClientErrorCode.Protocol, `${call}: ${doing}${String(error)}`, {
        command: call,
        cause: error,
      });
    }
    if (error.command === call || error.code === PiClientErrorCode.RpcFailed) return error;
    const message =
      error.code === PiClientErrorCode.TransportClosed
        ? PiClientError.transportClosed(error.closeInfo, call).message
        : `${call}: ${doing}${error.message}`;
    return new PiClientError(error.code, message, {
      command: call,
      ...(error.closeInfo === undefined ? {} : { closeInfo: error.closeInfo }),
      cause: error,
    });
  }

  /** pi broke the protocol (an unparseable record, an id-less failure); `cause` holds the detail. */
  static protocol(
    message: string,
    cause?: ProtocolError | unknown,
    command?: string,
  ): PiClientError {
    return new PiClientError(PiClientErrorCode.Protocol, message, {
      ...(command === undefined ? {} : { command }),
      cause,
    });
  }

  /** The connected pi lacks the command (`why` says how that is known). */
  static unsupported(command: string, why: string): PiClientError {
    return new PiClientError(
      PiClientErrorCode.Unsupported,
      `${command} is not supported by the connected pi (${why})`,
      { command },
    );
  }

  /** The command failed validation; `cause` is the {@link ProtocolError} with the detail. */
  static invalidCommand(command: string, cause: ProtocolError): PiClientError {
    return new PiClientError(
      PiClientErrorCode.InvalidCommand,
      `invalid ${command} command: ${cause.message}`,
      {
        command,
        cause,
      },
    );
  }
}
