import { JsonlDecoder } from "@pi-kit/protocol";
import {
  type BridgePingRecord,
  type BridgeRecord,
  parseBridgeRecord,
} from "@pi-kit/protocol/bridge";
import { settlesWithin } from "../frames.ts";
import { Listeners } from "../listeners.ts";
import type { ReconnectInfo, TransportCloseInfo, TransportFrames } from "../transport.ts";
import { type Backoff, backoffDelay, resolveBackoff } from "./backoff.ts";
import { finalCloseInfo } from "./close-codes.ts";
import {
  type ConnectionState,
  ConnectionStateEvent,
  type SocketClose,
  WebSocketCloseError,
} from "./connection-state.ts";
import {
  BridgeRefusalEvent,
  ControlChangeEvent,
  type ControlState,
  controlState,
  TakeControlError,
} from "./control-state.ts";
import { FrameQueue } from "./frame-queue.ts";
import { KeepaliveWatch } from "./keepalive.ts";
import { offeredProtocols, resolveToken, socketAddress } from "./protocols.ts";
import {
  describeRefusedHandshake,
  refusedHandshake,
  refusedHandshakeClose,
} from "./refused-handshake.ts";
import {
  globalWebSocket,
  messageText,
  OPEN,
  type WebSocketConstructor,
  type WebSocketLike,
} from "./socket.ts";
import { renewalDelay, ticketExpiry } from "./ticket-renewal.ts";
import { UnansweredRequests } from "./unanswered-requests.ts";
import type {
  WebSocketTransport,
  WebSocketTransportOptions,
} from "./websocket-transport-contract.ts";

/** How long `close()` waits for the server's closing handshake before it lets go. */
const CLOSE_HANDSHAKE_MS = 1000;
/** Upgrade refusals that no retry can fix: bad request, token, origin, unknown session. */
const FINAL_HTTP_STATUSES = new Set([400, 401, 403, 404]);
/** The shortest wait before asking a token function again after a failed renewal. */
const RENEW_RETRY_MIN_MS = 500;
/** Default bound on opening one socket. */
const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
/**
 * A socket open this long counts as a success and resets the backoff. A bridge that accepts and
 * then closes at once (overloaded, restarting) must not be retried at the initial delay forever.
 */
const STABLE_MS = 2000;

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
  readonly #backoff: Backoff;
  readonly #connectTimeoutMs: number;
  /**
   * The keepalive window the last socket's bridge announced: after a socket was dropped for
   * silence, a handshake that takes longer is as dead as a socket silent that long (a frozen node
   * behind a proxy accepts and never answers).
   */
  #keepaliveWindowMs: number | undefined;
  /**
   * A socket was dropped for silence and none has opened since. Only then is a handshake held to
   * the keepalive window: otherwise a slow but live one (a takeover that waits for a lease and
   * starts pi) would be given up again and again.
   */
  #afterSilence = false;
  readonly #maxRecordBytes: number | undefined;
  readonly #signal: AbortSignal | undefined;
  readonly #onAbort = (): void => void this.close();
  #settle!: (info: TransportCloseInfo) => void;
  #state: ConnectionState = { status: "connecting" };
  #socket: WebSocketLike | undefined;
  #generation = 0;
  #attempt = 0;
  #openedAt: number | undefined;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;
  #openTimer: ReturnType<typeof setTimeout> | undefined;
  /** Renews the open socket's ticket before it expires (a token function's tickets only). */
  #renewTimer: ReturnType<typeof setTimeout> | undefined;
  /** The open socket's requests still unanswered: a renewal waits for them. */
  readonly #unanswered = new UnansweredRequests();
  /** After a renewal from a socket in control: take control back on the new socket if nobody has it. */
  #reclaim: { socket: WebSocketLike; from: number; asked: boolean } | undefined;
  #openWaiters: Array<{ resolve: (s: WebSocketLike) => void; reject: (e: unknown) => void }> = [];
  #closeRequested = false;
  #final: TransportCloseInfo | undefined;
  #control: ControlState | undefined;
  #takers: Array<{ resolve: (c: ControlState) => void; reject: (e: TakeControlError) => void }> =
    [];
  readonly #dialogClosed = new Listeners<string>();
  readonly #piStderr = new Listeners<string>();

  constructor(options: WebSocketTransportOptions) {
    super();
    this.url = socketAddress(options);
    const { token, protocols } = options;
    // A static token and the extra protocols are checked now; a function's token on each use.
    const offered = offeredProtocols(typeof token === "function" ? undefined : token, protocols);
    this.#offer =
      typeof token === "function"
        ? async () => {
            const fresh = await resolveToken(token);
            return { protocols: offeredProtocols(fresh, protocols), ticket: fresh };
          }
        : () => ({ protocols: offered });
    const Socket = options.WebSocket ?? globalWebSocket();
    if (Socket === undefined) {
      throw new TypeError(
        "this runtime has no global WebSocket (Node 20): pass `WebSocket` from the ws package, or use createNodeWebSocketTransport from @pi-kit/client/ws-node",
      );
    }
    this.#Socket = Socket;
    this.#backoff =
      options.reconnect === false
        ? resolveBackoff({ maxAttempts: 0 })
        : resolveBackoff(options.reconnect);
    this.#connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
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
    return this.#control;
  }

  async takeControl(): Promise<ControlState> {
    if (this.#control?.inControl) return this.#control;
    let socket: WebSocketLike;
    try {
      socket = await this.#whenOpen();
    } catch (error) {
      throw new TakeControlError("closed", `takeControl: ${String(error)}`);
    }
    return new Promise((resolve, reject) => {
      this.#takers.push({ resolve, reject });
      socket.send('{"type":"bridge_take_control"}');
    });
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
    this.#openedAt = undefined;
    this.#attempt = 1;
    const lastClose = { code: 1000, reason: "reconnect requested" };
    this.#setState({ status: "reconnecting", attempt: 1, delayMs: 0, lastClose });
    this.#open();
  }

  async close(): Promise<TransportCloseInfo> {
    if (this.#final !== undefined || this.#closeRequested) return this.closed;
    this.#closeRequested = true;
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

  /**
   * Renews `socket`'s ticket: asks the token function for a fresh one while the socket stays
   * open, then replaces the socket with one opened on it, quietly (the state stays `open`; the
   * client resyncs as after any reconnect). A function that fails, or gives a ticket that
   * expires no later, is asked again after half the time left, until the expiry; one that does
   * not answer leaves the socket as it is. Either way the bridge closes it at the ticket's
   * expiry (4401, `ticket_expired`).
   */
  #renew(socket: WebSocketLike, expiresAt: number, patient = true): void {
    this.#renewTimer = undefined;
    if (this.#socket !== socket || socket.readyState !== OPEN) return;
    if (patient && this.#unanswered.size > 0) {
      // Answers come only on this socket: renew once they are in, or at half the time left
      // (a long bash run), when the bridge's cut-off would lose them anyway.
      const renew = (): void => this.#renew(socket, expiresAt, false);
      this.#unanswered.whenIdle(renew);
      this.#renewTimer = setTimeout(renew, Math.max(0, (expiresAt - Date.now()) / 2));
      return;
    }
    const request = ++this.#tokenRequests;
    Promise.resolve(this.#offer()).then(
      (fresh) => {
        if (request !== this.#tokenRequests || this.#socket !== socket) return;
        if (this.#final !== undefined || this.#closeRequested) return;
        // The same ticket again (a cache, a page that stopped answering) renews nothing.
        const next = fresh.ticket === undefined ? undefined : ticketExpiry(fresh.ticket);
        if (next === undefined || next <= expiresAt) {
          this.#renewLater(socket, expiresAt);
          return;
        }
        const from = this.#control?.inControl === true ? this.#control.you.id : undefined;
        this.#detach(socket, 1000, "ticket renewal");
        this.#openedAt = undefined;
        this.#connect(fresh);
        const replacement = this.#socket;
        if (from !== undefined && replacement !== undefined) {
          this.#reclaim = { socket: replacement, from, asked: false };
        }
      },
      // Keep the socket meanwhile: the bridge ends it at the expiry, and that close says why.
      () => {
        if (request === this.#tokenRequests) this.#renewLater(socket, expiresAt);
      },
    );
  }

  /** Asks for a fresh ticket again after half the time left before `expiresAt`, if any is left. */
  #renewLater(socket: WebSocketLike, expiresAt: number): void {
    const left = expiresAt - Date.now();
    if (this.#socket !== socket || left <= 0) return;
    this.#renewTimer = setTimeout(
      () => this.#renew(socket, expiresAt),
      Math.max(RENEW_RETRY_MIN_MS, left / 2),
    );
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
    const connectTimeoutMs = Math.min(
      this.#connectTimeoutMs,
      (this.#afterSilence ? this.#keepaliveWindowMs : undefined) ?? Number.POSITIVE_INFINITY,
    );
    this.#openTimer = setTimeout(() => {
      this.#openTimer = undefined;
      if (this.#socket !== socket || socket.readyState === OPEN) return;
      this.#detach(socket, 1000, "connect timeout");
      this.#dropped({ code: 1006, reason: `no connection within ${connectTimeoutMs} ms` });
    }, connectTimeoutMs);
    let opened = false;
    const keepalive = new KeepaliveWatch((silentMs) => {
      if (this.#socket !== socket) return;
      this.#afterSilence = true;
      this.#detach(socket, 1000, "keepalive");
      this.#dropped({
        code: 1006,
        reason: `nothing from the bridge for ${Math.round(silentMs)} ms`,
      });
    });
    socket.addEventListener("open", () => {
      if (this.#socket !== socket) return;
      opened = true;
      this.#afterSilence = false;
      this.#clearOpenTimer();
      this.#generation++;
      this.#openedAt = Date.now();
      if (this.#generation > 1) this.#queue.reconnected({ generation: this.#generation });
      this.#setState({ status: "open", generation: this.#generation, protocol: socket.protocol });
      for (const waiter of this.#openWaiters.splice(0)) waiter.resolve(socket);
      const expiresAt = offer.ticket === undefined ? undefined : ticketExpiry(offer.ticket);
      if (expiresAt !== undefined) {
        this.#renewTimer = setTimeout(
          () => this.#renew(socket, expiresAt),
          renewalDelay(expiresAt, Date.now()),
        );
      }
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
          this.#keepaliveWindowMs = keepalive.heard(bridgeRecord.intervalMs);
        } else this.#bridgeRecord(bridgeRecord, socket);
      }
    });
    socket.addEventListener("close", (event) => {
      keepalive.stop();
      if (this.#socket !== socket) return;
      this.#socket = undefined;
      this.#clearRenewTimer();
      this.#unanswered.clear();
      this.#controlLost();
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
      const message = event.message ?? "";
      const refused = refusedHandshake(message);
      this.#detach(socket, 1000, "failed");
      const close =
        refused === undefined ? { code: 1006, reason: message } : refusedHandshakeClose(refused);
      if (this.#closeRequested) this.#finish({ reason: "closed" });
      else if (refused !== undefined && FINAL_HTTP_STATUSES.has(refused.status)) {
        const error = new WebSocketCloseError(describeRefusedHandshake(refused), close);
        this.#finish({ reason: "error", error });
      } else this.#dropped(close);
    });
  }

  #dropped(close: SocketClose): void {
    const final = finalCloseInfo(close);
    if (final !== undefined) {
      this.#finish(final);
      return;
    }
    if (this.#openedAt !== undefined && Date.now() - this.#openedAt >= STABLE_MS) this.#attempt = 0;
    this.#openedAt = undefined;
    const attempt = ++this.#attempt;
    if (attempt > this.#backoff.maxAttempts) {
      const tries = attempt - 1;
      const message =
        tries === 0
          ? `the connection dropped (code ${close.code}) and reconnecting is off`
          : `gave up reconnecting after ${tries} attempt${tries === 1 ? "" : "s"} (last close code ${close.code})`;
      this.#finish({ reason: "error", error: new WebSocketCloseError(message, close) });
      return;
    }
    const delayMs = backoffDelay(attempt, this.#backoff);
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
      if (record.command === "bridge_take_control") {
        const refusal = new TakeControlError(record.code, record.error);
        for (const taker of this.#takers.splice(0)) taker.reject(refusal);
      }
      this.dispatchEvent(new BridgeRefusalEvent(record));
      return;
    }
    this.#control = controlState(record);
    this.#reclaimControl(this.#control, socket);
    if (this.#control.inControl) {
      for (const taker of this.#takers.splice(0)) taker.resolve(this.#control);
    }
    this.dispatchEvent(new ControlChangeEvent(this.#control));
  }

  /**
   * After a renewal, the socket that replaced the controller takes control back once the old one
   * has left (the bridge may see the new socket first); someone else taking it ends the claim.
   */
  #reclaimControl(control: ControlState, socket: WebSocketLike): void {
    const reclaim = this.#reclaim;
    if (reclaim === undefined) return;
    if (reclaim.socket !== socket || control.inControl) {
      this.#reclaim = undefined;
      return;
    }
    const holder = control.controller?.id;
    if (holder !== undefined && holder !== reclaim.from) {
      this.#reclaim = undefined;
      return;
    }
    if (holder === undefined && !reclaim.asked) {
      reclaim.asked = true;
      socket.send('{"type":"bridge_take_control"}');
    }
  }

  /** The socket is gone: so is what the bridge said about it, and any wait to take control. */
  #controlLost(): void {
    const error = new TakeControlError("closed", "the connection closed before control was taken");
    for (const taker of this.#takers.splice(0)) taker.reject(error);
    if (this.#control === undefined) return;
    this.#control = undefined;
    this.dispatchEvent(new ControlChangeEvent(undefined));
  }

  #detach(socket: WebSocketLike, code: number, reason: string): void {
    if (this.#socket === socket) {
      this.#clearRenewTimer();
      this.#unanswered.clear();
      this.#socket = undefined;
      this.#controlLost();
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

  #clearRenewTimer(): void {
    if (this.#renewTimer !== undefined) clearTimeout(this.#renewTimer);
    this.#renewTimer = undefined;
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

/** What to offer a socket: the subprotocols, and the ticket among them when a token function gave one. */
interface Offer {
  readonly protocols: string[];
  readonly ticket?: string;
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
