import { JsonlDecoder } from "@pi-kit/protocol";
import {
  type BridgePingRecord,
  type BridgeRecord,
  parseBridgeRecord,
} from "@pi-kit/protocol/bridge";
import { settlesWithin } from "../frames.ts";
import { Listeners } from "../listeners.ts";
import type { ReconnectInfo, TransportCloseInfo, TransportFrames } from "../transport.ts";
import { resolveBackoff } from "./backoff.ts";
import { finalCloseInfo } from "./close-codes.ts";
import {
  type ConnectionState,
  ConnectionStateEvent,
  type SocketClose,
  WebSocketCloseError,
} from "./connection-state.ts";
import { ControlHandoff } from "./control-handoff.ts";
import {
  BridgeRefusalEvent,
  ControlChangeEvent,
  type ControlState,
  TakeControlError,
} from "./control-state.ts";
import { FrameQueue } from "./frame-queue.ts";
import { HandshakeDeadline } from "./handshake-deadline.ts";
import { KeepaliveWatch } from "./keepalive.ts";
import { type Offer, offers, socketAddress } from "./protocols.ts";
import { ReconnectAttempts } from "./reconnect-attempts.ts";
import { failedHandshake } from "./refused-handshake.ts";
import {
  globalWebSocket,
  messageText,
  OPEN,
  type WebSocketConstructor,
  type WebSocketLike,
} from "./socket.ts";
import { SocketRenewal } from "./socket-renewal.ts";
import { UnansweredRequests } from "./unanswered-requests.ts";
import type {
  WebSocketTransport,
  WebSocketTransportOptions,
} from "./websocket-transport-contract.ts";

/** How long `close()` waits for the server's closing handshake before it lets go. */
const CLOSE_HANDSHAKE_MS = 1000;

/**
 * Connects to a pi session through the WebSocket bridge. Web standards only: the global
 * `WebSocket` of browsers, Deno, Bun and Node 22, or any compatible class passed as `WebSocket`.
 *
 * Drops (network loss, bridge restart, stalls: codes 1001, 1006, 1011-1013) reconnect with backoff
 * and jitter; the records of the new socket follow on the same `readable`, and `onReconnect`
 * listeners run between the two sockets' records. Writes made while disconnected wait for the next
 * socket. Final closes settle `closed`: pi exited (4000, or 4001 with an exit code: `exit` with
 * `exitCode`, `signal`, `stderrTail`), refusals (1003, 1008, 1009,
 * a missing or wrong token 4401, a foreign origin 4403, an unknown session 4404: `error`), a normal
 * close (1000: `eof`), `close()` (`closed`), or giving up after `reconnect.maxAttempts` failures
 * (`error`). The bridge answers a refused handshake that offers `pi-kit.v1` with one of those close
 * codes rather than an HTTP status, which browsers would report as a plain network failure (1006).
 *
 * @example
 * ```ts
 * const transport = createWebSocketTransport({ url: "wss://example.com/sessions/main/ws", token });
 * transport.addEventListener("statechange", () => render(transport.state));
 * const client = await PiClient.connect(transport);
 * ```
 */
export function createWebSocketTransport(options: WebSocketTransportOptions): WebSocketTransport {
  return new WebSocketTransportImpl(options);
}

class WebSocketTransportImpl extends EventTarget implements WebSocketTransport {
  readonly url: string;
  readonly readable: ReadableStream<TransportFrames>;
  readonly writable: WritableStream<string>;
  readonly closed: Promise<TransportCloseInfo>;
  readonly #queue: FrameQueue;
  /** The subprotocols to offer: at once for a static token, after asking a token function. */
  readonly #offer: () => Offer | Promise<Offer>;
  /** Counts token requests, so a late answer for an abandoned attempt is ignored. */
  #tokenRequests = 0;
  readonly #Socket: WebSocketConstructor;
  readonly #attempts: ReconnectAttempts;
  readonly #deadline: HandshakeDeadline;
  readonly #maxRecordBytes: number | undefined;
  readonly #signal: AbortSignal | undefined;
  readonly #onAbort = (): void => void this.close();
  #settle!: (info: TransportCloseInfo) => void;
  #state: ConnectionState = { status: "connecting" };
  #socket: WebSocketLike | undefined;
  #generation = 0;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;
  #openTimer: ReturnType<typeof setTimeout> | undefined;
  /** Renews the open socket's ticket before it expires (a token function's tickets only). */
  #renewal: SocketRenewal | undefined;
  /** The open socket's requests still unanswered: a renewal waits for them. */
  readonly #unanswered = new UnansweredRequests();
  #openWaiters: Array<{ resolve: (s: WebSocketLike) => void; reject: (e: unknown) => void }> = [];
  #closeRequested = false;
  #final: TransportCloseInfo | undefined;
  readonly #control = new ControlHandoff((control) =>
    this.dispatchEvent(new ControlChangeEvent(control)),
  );
  readonly #dialogClosed = new Listeners<string>();
  readonly #piStderr = new Listeners<string>();

  constructor(options: WebSocketTransportOptions) {
    super();
    this.url = socketAddress(options);
    this.#offer = offers(options.token, options.protocols);
    const Socket = options.WebSocket ?? globalWebSocket();
    if (Socket === undefined) {
      throw new TypeError(
        "this runtime has no global WebSocket (Node 20): pass `WebSocket` from the ws package, or use createNodeWebSocketTransport from @pi-kit/client/ws-node",
      );
    }
    this.#Socket = Socket;
    this.#attempts = new ReconnectAttempts(
      resolveBackoff(options.reconnect === false ? { maxAttempts: 0 } : options.reconnect),
    );
    this.#deadline = new HandshakeDeadline(options.connectTimeoutMs);
    this.#maxRecordBytes = options.maxRecordBytes;
    this.closed = new Promise((resolve) => {
      this.#settle = resolve;
    });
    this.#queue = new FrameQueue(
      () => void this.close(),
      // A throwing reconnect listener is the client's bug; surface it without breaking the stream.
      (error) => queueMicrotask(() => reportError(error)),
    );
    this.readable = this.#queue.readable;
    this.writable = new WritableStream<string>({
      write: async (record) => {
        const socket = await this.#whenOpen();
        // One record per text message: the bridge adds the LF when it writes to pi's stdin.
        const text = record.endsWith("\n") ? record.slice(0, -1) : record;
        socket.send(text);
        this.#unanswered.sent(text);
      },
      close: async () => {
        await this.close();
      },
      abort: async () => {
        await this.close();
      },
    });
    this.#signal = options.signal;
    if (this.#signal?.aborted) {
      this.#finish({ reason: "closed" });
      return;
    }
    this.#signal?.addEventListener("abort", this.#onAbort, { once: true });
    this.#open();
  }

  get state(): ConnectionState {
    return this.#state;
  }

  get generation(): number {
    return this.#generation;
  }

  get control(): ControlState | undefined {
    return this.#control.current;
  }

  async takeControl(): Promise<ControlState> {
    const control = this.#control.current;
    if (control?.inControl) return control;
    let socket: WebSocketLike;
    try {
      socket = await this.#whenOpen();
    } catch (error) {
      throw new TakeControlError("closed", `takeControl: ${String(error)}`);
    }
    return this.#control.take(socket);
  }

  onReconnect(listener: (info: ReconnectInfo) => void): () => void {
    return this.#queue.onReconnect(listener);
  }

  onDialogClosed(listener: (id: string) => void): () => void {
    return this.#dialogClosed.add(listener);
  }

  onPiStderr(listener: (text: string) => void): () => void {
    return this.#piStderr.add(listener);
  }

  reconnect(): void {
    if (this.#final !== undefined || this.#closeRequested) return;
    if (this.#retryTimer !== undefined) {
      clearTimeout(this.#retryTimer);
      this.#retryTimer = undefined;
      this.#open();
      return;
    }
    const socket = this.#socket;
    if (socket === undefined) return;
    // Forget the socket first so its late events are ignored, then open the next one at once.
    this.#detach(socket, 1000, "reconnect");
    this.#attempts.restart();
    const lastClose = { code: 1000, reason: "reconnect requested" };
    this.#setState({ status: "reconnecting", attempt: 1, delayMs: 0, lastClose });
    this.#open();
  }

  async close(): Promise<TransportCloseInfo> {
    if (this.#final !== undefined || this.#closeRequested) return this.closed;
    this.#closeRequested = true;
    this.#stopRenewal();
    const socket = this.#socket;
    if (socket === undefined) {
      this.#finish({ reason: "closed" });
      return this.closed;
    }
    try {
      socket.close(1000, "client closed");
    } catch {
      // Closing a socket that already failed throws in some implementations; it is closed either way.
    }
    if (!(await settlesWithin(this.closed, CLOSE_HANDSHAKE_MS))) this.#finish({ reason: "closed" });
    return this.closed;
  }

  #open(): void {
    const offer = this.#offer();
    if (!(offer instanceof Promise)) {
      this.#connect(offer);
      return;
    }
    const request = ++this.#tokenRequests;
    const stale = (): boolean =>
      request !== this.#tokenRequests || this.#final !== undefined || this.#closeRequested;
    offer.then(
      (fresh) => {
        if (!stale()) this.#connect(fresh);
      },
      (error: unknown) => {
        if (stale()) return;
        const message = error instanceof Error ? error.message : String(error);
        this.#dropped({ code: 1006, reason: `no token for the connection: ${message}` });
      },
    );
  }

  /** A renewal's fresh ticket replaces `socket` with one opened on it, in control if it was. */
  #renewed(socket: WebSocketLike, fresh: Offer): void {
    this.#control.renewing(() => {
      this.#detach(socket, 1000, "ticket renewal");
      this.#attempts.replaced();
      this.#connect(fresh);
      return this.#socket;
    });
  }

  #connect(offer: Offer): void {
    let socket: WebSocketLike;
    try {
      socket = new this.#Socket(this.url, offer.protocols);
    } catch (error) {
      this.#finish({ reason: "error", error });
      return;
    }
    this.#socket = socket;
    socket.binaryType = "arraybuffer";
    const decoder = new JsonlDecoder({
      ...(this.#maxRecordBytes === undefined ? {} : { maxRecordBytes: this.#maxRecordBytes }),
      onError: (error) => this.#queue.push(error),
    });
    const connectTimeoutMs = this.#deadline.ms;
    this.#openTimer = setTimeout(() => {
      this.#openTimer = undefined;
      if (this.#socket !== socket || socket.readyState === OPEN) return;
      this.#detach(socket, 1000, "connect timeout");
      this.#dropped({ code: 1006, reason: `no connection within ${connectTimeoutMs} ms` });
    }, connectTimeoutMs);
    let opened = false;
    const keepalive = new KeepaliveWatch((silentMs) => {
      if (this.#socket !== socket) return;
      this.#deadline.silenced();
      this.#detach(socket, 1000, "keepalive");
      this.#dropped({
        code: 1006,
        reason: `nothing from the bridge for ${Math.round(silentMs)} ms`,
      });
    });
    socket.addEventListener("open", () => {
      if (this.#socket !== socket) return;
      opened = true;
      this.#deadline.opened();
      this.#clearOpenTimer();
      this.#generation++;
      this.#attempts.opened();
      if (this.#generation > 1) this.#queue.reconnected({ generation: this.#generation });
      this.#setState({ status: "open", generation: this.#generation, protocol: socket.protocol });
      for (const waiter of this.#openWaiters.splice(0)) waiter.resolve(socket);
      this.#renewal = SocketRenewal.start(socket, offer, this.#unanswered, {
        fresh: async () => this.#offer(),
        replace: (fresh) => this.#renewed(socket, fresh),
      });
    });
    socket.addEventListener("message", (event) => {
      if (this.#socket !== socket) return;
      const text = messageText(event.data);
      if (text === undefined) return;
      keepalive.heard();
      for (const record of decoder.push(text.endsWith("\n") ? text : `${text}\n`)) {
        if (record === "") continue;
        // The bridge's own records are about this connection, not pi: they stop here.
        const bridgeRecord = typeof record === "string" ? parseBridgeRecord(record) : undefined;
        if (bridgeRecord === undefined) {
          if (typeof record === "string") this.#unanswered.received(record);
          this.#queue.push(record);
        } else if (bridgeRecord.type === "bridge_ping") {
          this.#deadline.keepaliveWindow(keepalive.heard(bridgeRecord.intervalMs));
        } else this.#bridgeRecord(bridgeRecord, socket);
      }
    });
    socket.addEventListener("close", (event) => {
      keepalive.stop();
      if (this.#socket !== socket) return;
      this.#socket = undefined;
      this.#stopRenewal();
      this.#unanswered.clear();
      this.#control.lost();
      this.#clearOpenTimer();
      if (this.#closeRequested) this.#finish({ reason: "closed" });
      // Deno reports an abnormal close as code 0; 1006 is what the standard says it is.
      else this.#dropped({ code: event.code || 1006, reason: event.reason ?? "" });
    });
    // After an open socket's error a close event follows, which decides what happens; listening
    // also keeps `ws` from treating the error as unhandled. A socket that fails before opening is
    // settled here: Node 22's WebSocket fires no close event then. Where the HTTP status of a
    // refused upgrade is visible (`ws`; browsers hide it), a refusal no retry can fix is final.
    socket.addEventListener("error", (event) => {
      if (this.#socket !== socket || opened) return;
      this.#detach(socket, 1000, "failed");
      const { close, final } = failedHandshake(event.message ?? "");
      if (this.#closeRequested) this.#finish({ reason: "closed" });
      else if (final !== undefined) this.#finish({ reason: "error", error: final });
      else this.#dropped(close);
    });
  }

  #dropped(close: SocketClose): void {
    const final = finalCloseInfo(close);
    if (final !== undefined) {
      this.#finish(final);
      return;
    }
    const next = this.#attempts.next(close);
    if (next instanceof WebSocketCloseError) {
      this.#finish({ reason: "error", error: next });
      return;
    }
    const { attempt, delayMs } = next;
    this.#setState({ status: "reconnecting", attempt, delayMs, lastClose: close });
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = undefined;
      this.#open();
    }, delayMs);
  }

  #whenOpen(): Promise<WebSocketLike> {
    if (this.#final !== undefined) return Promise.reject(closedError(this.#final));
    const socket = this.#socket;
    if (socket !== undefined && socket.readyState === OPEN) return Promise.resolve(socket);
    return new Promise((resolve, reject) => this.#openWaiters.push({ resolve, reject }));
  }

  #bridgeRecord(record: Exclude<BridgeRecord, BridgePingRecord>, socket: WebSocketLike): void {
    if (record.type === "bridge_dialog_closed") {
      this.#dialogClosed.notify(record.id);
      return;
    }
    if (record.type === "bridge_pi_stderr") {
      this.#piStderr.notify(record.text);
      return;
    }
    if (record.type === "bridge_error") {
      this.#control.refused(record);
      this.dispatchEvent(new BridgeRefusalEvent(record));
      return;
    }
    this.#control.received(record, socket);
  }

  #detach(socket: WebSocketLike, code: number, reason: string): void {
    if (this.#socket === socket) {
      this.#stopRenewal();
      this.#unanswered.clear();
      this.#socket = undefined;
      this.#control.lost();
    }
    this.#clearOpenTimer();
    try {
      socket.close(code, reason);
    } catch {
      // Closing a socket that is still connecting may throw; it is abandoned either way.
    }
  }

  #finish(info: TransportCloseInfo): void {
    if (this.#final !== undefined) return;
    this.#final = info;
    if (this.#retryTimer !== undefined) clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    const socket = this.#socket;
    if (socket !== undefined) this.#detach(socket, 1000, "client closed");
    this.#signal?.removeEventListener("abort", this.#onAbort);
    const error = closedError(info);
    for (const waiter of this.#openWaiters.splice(0)) waiter.reject(error);
    this.#queue.end();
    this.#setState({ status: "closed", closeInfo: info });
    this.#settle(info);
  }

  #stopRenewal(): void {
    this.#renewal?.stop();
    this.#renewal = undefined;
  }

  #clearOpenTimer(): void {
    if (this.#openTimer !== undefined) clearTimeout(this.#openTimer);
    this.#openTimer = undefined;
  }

  #setState(state: ConnectionState): void {
    this.#state = state;
    this.dispatchEvent(new ConnectionStateEvent(state));
  }
}

function closedError(info: TransportCloseInfo): Error {
  return info.error instanceof Error
    ? info.error
    : new Error(`the WebSocket transport is closed (${info.reason})`);
}

function reportError(error: unknown): void {
  const report = (globalThis as { reportError?: (error: unknown) => void }).reportError;
  if (typeof report === "function") report(error);
  else throw error;
}
