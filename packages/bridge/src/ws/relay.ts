/**
 * One WebSocket connection attached to a session: inbound messages go through the size cap, the
 * rate limit, the command policy and the session's control (a watcher only queries) to pi;
 * outbound records come from the session, with backpressure measured on the socket.
 */

import {
  BridgeCloseCode,
  closeReason,
  refusalReason,
  TicketRefusal,
  tooBigReason,
} from "@pi-kit/protocol/bridge";
import type { WSContext, WSEvents, WSMessageReceive } from "hono/ws";
import { type BridgeLogger, safeLog } from "../logging/logger.ts";
import type { CommandPolicy } from "../security/command-policy.ts";
import { TokenBucket } from "../security/rate-limit.ts";
import type { Session } from "../sessions/session.ts";
import type { SessionConnection } from "../sessions/session-connection.ts";
import type { WebSocketRuntime } from "./runtime.ts";

/** How often a paused relay looks at the socket's buffer again. */
const DRAIN_POLL_MS = 5;
/** How long a close may take before the socket is dropped (a stalled peer never answers it). */
const CLOSE_GRACE_MS = 1000;

/** Per-connection limits, resolved. */
export interface RelayLimits {
  readonly maxRecordBytes: number;
  readonly messagesPerSecond: number;
  readonly messageBurst: number;
  readonly highWaterMark: number;
  readonly stallTimeoutMs: number;
  /** How often a `bridge_ping` goes out, in ms; 0 for never. */
  readonly keepaliveMs: number;
}

/** What a connection needs from the bridge. */
export interface RelayContext {
  readonly session: Session;
  readonly runtime: WebSocketRuntime;
  readonly policy: CommandPolicy;
  readonly limits: RelayLimits;
  readonly logger: BridgeLogger;
  readonly origin: string | null;
  /** A display name for the other viewers (at most {@link MAX_LABEL_LENGTH} characters); default `connection <id>`. */
  readonly label?: string;
  /** The connection may watch but never control (a read-only ticket). Default `false`. */
  readonly readOnly?: boolean;
  /** Who the viewer is across reconnects and restarts (`viewerIdentity` of its viewer key), if it said. */
  readonly viewer?: string;
  /**
   * When the connection's credential runs out (a ticket's `exp` plus the clock tolerance, ms
   * since the epoch): the socket is closed then (4401, `ticket_expired`), and nothing it sends
   * from then on reaches pi. `undefined`: never (the static token).
   */
  readonly closeAt?: number;
}

/** The longest a timer can wait (about 24.8 days); a later expiry re-arms it. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The longest connection label, in characters. */
export const MAX_LABEL_LENGTH = 64;
/** A take-control request: checked before the policy, which knows only pi's records. */
const TAKE_CONTROL = /^\s*\{\s*"type"\s*:\s*"bridge_take_control"\s*\}\s*$/;

let nextConnectionId = 1;

/** The Hono WebSocket handlers for a new connection to `context.session`. */
export function relayEvents(context: RelayContext): WSEvents<unknown> {
  let connection: SocketConnection | undefined;
  return {
    onOpen(_event, ws) {
      connection = new SocketConnection(ws, context);
      safeLog(context.logger, {
        event: "connection_open",
        session: context.session.key,
        connection: connection.id,
        origin: context.origin,
      });
      context.session.attach(connection);
      connection.startKeepalive();
    },
    onMessage(event) {
      connection?.receive(event.data);
    },
    onClose(event) {
      if (connection === undefined) return;
      connection.onClosed();
      context.session.detach(connection);
      safeLog(context.logger, {
        event: "connection_close",
        session: context.session.key,
        connection: connection.id,
        code: event.code,
        reason: event.reason,
      });
    },
  };
}

/** A socket as the session sees it. */
class SocketConnection implements SessionConnection {
  readonly id = nextConnectionId++;
  readonly label: string;
  readonly readOnly: boolean;
  readonly viewer: string | undefined;
  readonly #ws: WSContext<unknown>;
  readonly #raw: unknown;
  readonly #context: RelayContext;
  readonly #bucket: TokenBucket;
  readonly #encoder = new TextEncoder();
  #open = true;
  #heard = false;
  #terminate: ReturnType<typeof setTimeout> | undefined;
  #expiry: ReturnType<typeof setTimeout> | undefined;
  #keepalive: ReturnType<typeof setInterval> | undefined;

  constructor(ws: WSContext<unknown>, context: RelayContext) {
    this.#ws = ws;
    // Bun hands each event a fresh context around the same native socket: keep the socket.
    this.#raw = ws.raw;
    this.#context = context;
    // Shown to the other viewers: no control characters, and short.
    const label = context.label
      ?.replace(/\p{Cc}/gu, "")
      .trim()
      .slice(0, MAX_LABEL_LENGTH);
    this.label = label || `connection ${this.id}`;
    this.readOnly = context.readOnly === true;
    this.viewer = context.viewer;
    this.#bucket = new TokenBucket(context.limits.messagesPerSecond, context.limits.messageBurst);
    this.#armExpiry();
  }

  /**
   * Sends a `bridge_ping` now (after the records of the attach, so the client knows the interval
   * from the start) and then every `keepaliveMs`. Browsers cannot see WebSocket pings: the client
   * watches for this record, or any other.
   */
  startKeepalive(): void {
    const { keepaliveMs } = this.#context.limits;
    if (keepaliveMs <= 0 || !this.#open) return;
    const ping = JSON.stringify({ type: "bridge_ping", intervalMs: keepaliveMs });
    this.send(ping);
    this.#keepalive = setInterval(() => this.send(ping), keepaliveMs);
  }

  /** Closes the socket once its credential has run out; re-arms while that is far away. */
  #armExpiry(): void {
    const { closeAt } = this.#context;
    if (closeAt === undefined || !this.#open) return;
    const left = closeAt - Date.now();
    if (left <= 0) {
      this.#expire();
      return;
    }
    this.#expiry = setTimeout(() => this.#armExpiry(), Math.min(left, MAX_TIMER_MS));
  }

  /** Whether the connection's credential has run out (checked on every message, as timers run late). */
  #expired(): boolean {
    const { closeAt } = this.#context;
    return closeAt !== undefined && Date.now() >= closeAt;
  }

  #expire(): void {
    if (!this.#open) return;
    safeLog(this.#context.logger, {
      event: "connection_expired",
      session: this.#context.session.key,
      connection: this.id,
    });
    this.close(
      BridgeCloseCode.Unauthorized,
      refusalReason("The ticket has expired", TicketRefusal.Expired),
    );
  }

  send(line: string): void {
    if (!this.#open) return;
    // Past the deadline (its timer not run yet on a busy machine) nothing more goes out either;
    // the close comes next, outside whatever loop is sending.
    if (this.#expired()) {
      queueMicrotask(() => this.#expire());
      return;
    }
    this.#ws.send(line);
  }

  bufferedAmount(): number {
    return this.#open ? this.#context.runtime.bufferedAmount(this.#raw) : 0;
  }

  async drained(): Promise<void> {
    const { highWaterMark, stallTimeoutMs } = this.#context.limits;
    const start = performance.now();
    while (this.#open) {
      const buffered = this.#context.runtime.bufferedAmount(this.#raw);
      if (buffered <= highWaterMark) return;
      if (performance.now() - start > stallTimeoutMs) {
        safeLog(this.#context.logger, {
          event: "connection_stalled",
          session: this.#context.session.key,
          connection: this.id,
          bufferedAmount: buffered,
        });
        this.close(BridgeCloseCode.TryAgainLater, closeReason({ reason: "stalled" }));
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, DRAIN_POLL_MS));
    }
  }

  close(code: number, reason: string): void {
    if (!this.#open) return;
    this.#open = false;
    clearTimeout(this.#expiry);
    clearInterval(this.#keepalive);
    this.#context.session.detach(this);
    try {
      this.#ws.close(code, reason);
    } catch {
      // Already closing.
    }
    // The close frame waits behind the queued data; a peer that reads nothing never sees it.
    this.#terminate = setTimeout(() => this.#context.runtime.terminate(this.#raw), CLOSE_GRACE_MS);
  }

  /** The socket is closed (by either side). */
  onClosed(): void {
    this.#open = false;
    clearTimeout(this.#terminate);
    clearTimeout(this.#expiry);
    clearInterval(this.#keepalive);
  }

  /** Whether its client has sent anything yet. */
  get heard(): boolean {
    return this.#heard;
  }

  /** Handles one inbound message: size, rate, control requests, policy, control, then pi. */
  receive(data: WSMessageReceive): void {
    if (!this.#open) return;
    this.#heard = true;
    if (this.#expired()) {
      this.#expire();
      return;
    }
    const { session, policy, limits } = this.#context;
    if (typeof data !== "string") {
      this.close(
        BridgeCloseCode.UnsupportedData,
        closeReason({ reason: "binary", detail: "send text" }),
      );
      return;
    }
    if (!this.#fits(data, limits.maxRecordBytes)) {
      this.close(BridgeCloseCode.MessageTooBig, tooBigReason(limits.maxRecordBytes));
      return;
    }
    if (!this.#bucket.tryConsume()) {
      this.close(
        BridgeCloseCode.PolicyViolation,
        closeReason({ reason: "rate_limit", perSecond: limits.messagesPerSecond }),
      );
      return;
    }
    if (TAKE_CONTROL.test(data)) {
      const taken = session.takeControl(this);
      safeLog(this.#context.logger, {
        event: taken ? "control_taken" : "control_refused",
        session: session.key,
        connection: this.id,
      });
      return;
    }
    const decision = policy(data, session.dir);
    if (!decision.ok) {
      safeLog(this.#context.logger, {
        event: "command_denied",
        session: session.key,
        connection: this.id,
        command: decision.type,
        reason: decision.reason,
      });
      this.send(decision.response);
      return;
    }
    const refusal = session.refusal(this, decision);
    if (refusal !== undefined) {
      safeLog(this.#context.logger, {
        event: "command_denied",
        session: session.key,
        connection: this.id,
        command: decision.type,
        reason: this.readOnly ? "read_only" : "not_in_control",
      });
      this.send(refusal);
      return;
    }
    if (!session.write(decision.line, decision.uiResponseId, this, decision.id)) {
      this.close(BridgeCloseCode.TryAgainLater, closeReason({ reason: "pi_input_backlog" }));
    }
  }

  /** Whether `text` is at most `max` UTF-8 bytes, encoding only when the length is ambiguous. */
  #fits(text: string, max: number): boolean {
    if (text.length > max) return false;
    if (text.length * 3 <= max) return true;
    return this.#encoder.encode(text).length <= max;
  }
}
