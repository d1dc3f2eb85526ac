/**
 * Forwarding a session's HTTP calls and sockets to the bridge that owns it. The proxy's hashing is
 * only affinity: after a failover, or when a node comes back and gets its old sessions hashed to
 * it again, a session's requests reach a node that does not own it. That node passes them to the
 * owner's internal URL (from the lease) instead of starting a second pi. The caller's token or
 * ticket stays on the first node, which vouches for who it authenticated with a signed identity
 * (`forwarded-identity.ts`) the owner verifies.
 */

import { BridgeCloseCode } from "@pi-kit/protocol/bridge";
import type { WSContext, WSEvents, WSMessageReceive } from "hono/ws";

/** Names the forwarding node on a forwarded request; the owner never forwards such a request again. */
export const FORWARDED_BY = "x-pi-kit-forwarded-by";

/** Headers that belong to one connection (RFC 9110 §7.6.1), never passed on. */
const HOP_BY_HOP = [
  "connection",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "host",
  "content-length",
];

/** The owner's URL for a request that reached this node: same path and query, the owner's origin. */
export function ownerUrl(
  requestUrl: string,
  owner: string,
  scheme: "http" | "ws" = "http",
): string {
  const from = new URL(requestUrl);
  const to = new URL(`${from.pathname}${from.search}`, owner);
  if (scheme === "ws") to.protocol = to.protocol === "https:" ? "wss:" : "ws:";
  return to.href;
}

/**
 * Sends `request` to the owner at `owner` (its internal base URL) and answers the owner's
 * response, headers and body streamed through. `via` names this node in {@link FORWARDED_BY}.
 */
export async function forwardRequest(
  request: Request,
  owner: string,
  via: string,
  fetchImpl: typeof fetch = fetch,
): Promise<Response> {
  const headers = withoutHopByHop(request.headers);
  headers.set(FORWARDED_BY, via);
  // The response is passed through as bytes: no decoding here and re-encoding nowhere.
  headers.set("accept-encoding", "identity");
  const hasBody = request.method !== "GET" && request.method !== "HEAD" && request.body !== null;
  const init: RequestInit & { duplex?: "half" } = {
    method: request.method,
    headers,
    redirect: "manual",
    signal: request.signal,
  };
  if (hasBody) {
    init.body = request.body;
    // Streaming a request body needs half-duplex in fetch (Node, Deno, Bun).
    init.duplex = "half";
  }
  const response = await fetchImpl(ownerUrl(request.url, owner), init);
  return new Response(response.body, {
    status: response.status,
    statusText: response.statusText,
    headers: withoutHopByHop(response.headers),
  });
}

function withoutHopByHop(from: Headers): Headers {
  const headers = new Headers(from);
  const named = (from.get("connection") ?? "").split(",").map((h) => h.trim().toLowerCase());
  for (const name of [...HOP_BY_HOP, ...named]) if (name !== "") headers.delete(name);
  return headers;
}

/** The parts of a client WebSocket (the global one, or `ws`'s on Node 20) the forwarder uses. */
export interface OwnerSocket {
  /** 0 connecting, 1 open, 2 closing, 3 closed. */
  readonly readyState: number;
  /** Set to `"arraybuffer"`, so binary frames arrive as bytes. */
  binaryType: string;
  /** Sends one frame. */
  send(data: string | ArrayBuffer | Uint8Array): void;
  /** Starts the closing handshake. */
  close(code?: number, reason?: string): void;
  /** Subscribes to a socket event. */
  addEventListener(
    type: "open" | "message" | "close" | "error",
    listener: (event: { data?: unknown; code?: number; reason?: string }) => void,
  ): void;
}

/** A WebSocket constructor: `globalThis.WebSocket`, or `WebSocket` from `ws` on Node 20. */
export type OwnerSocketConstructor = new (url: string, protocols?: string[]) => OwnerSocket;

/** Called when a relayed socket ends, with who ended it and the close code. */
export type RelayEnded = (by: "client" | "owner", code: number) => void;

/** An open socket to the owner, holding the frames it sent before the client's side is open. */
export class OwnerLink {
  readonly #socket: OwnerSocket;
  /** Owner frames that came before the client's side was open (a first frame can come at once). */
  readonly #early: (string | ArrayBuffer)[] = [];
  #client:
    | { send(data: string | ArrayBuffer): void; close(code: number, reason: string): void }
    | undefined;
  #closed: { code: number; reason: string } | undefined;
  #onEnded: RelayEnded | undefined;
  #ended = false;

  /** Wraps a socket just created, before it can receive anything. */
  constructor(socket: OwnerSocket) {
    this.#socket = socket;
    socket.binaryType = "arraybuffer";
    socket.addEventListener("message", (event) => {
      const data = frame(event.data);
      if (data === undefined) return;
      if (this.#client === undefined) this.#early.push(data);
      else this.#client.send(data);
    });
    socket.addEventListener("close", (event) => {
      const code = event.code ?? 1006;
      this.#closed = { code, reason: event.reason ?? "" };
      this.#end("owner", code);
      this.#client?.close(sendable(code, BridgeCloseCode.GoingAway), this.#closed.reason);
    });
  }

  /**
   * The upgrade's events that relay the client socket to the owner: frames both ways in order,
   * and each side's close passed to the other. An owner that vanishes without a close (its node
   * died) closes the client with 1001, which clients reconnect on.
   */
  events<T>(onEnded?: RelayEnded, openWithinMs = 5_000): WSEvents<T> {
    this.#onEnded = onEnded;
    // A client that left before its upgrade completed never opens: its owner's side must not
    // stay attached to the session (it would hold the session's control for nobody).
    const unopened = setTimeout(() => {
      if (this.#client === undefined) this.close();
    }, openWithinMs);
    (unopened as { unref?: () => void }).unref?.();
    return {
      onOpen: (_event, ws: WSContext<T>) => {
        clearTimeout(unopened);
        this.#client = {
          send: (data) => ws.send(data),
          close: (code, reason) => ws.close(code, reason),
        };
        for (const data of this.#early.splice(0)) ws.send(data);
        const closed = this.#closed;
        if (closed) ws.close(sendable(closed.code, BridgeCloseCode.GoingAway), closed.reason);
      },
      onMessage: (event: MessageEvent<WSMessageReceive>) => {
        const data = frame(event.data);
        if (data !== undefined && this.#socket.readyState === 1) this.#socket.send(data);
      },
      onClose: (event) => {
        clearTimeout(unopened);
        this.#end("client", event.code);
        if (this.#socket.readyState <= 1)
          this.#socket.close(sendable(event.code, 1000), event.reason);
      },
    };
  }

  /** Closes the owner's side (the client's upgrade failed, or this node's life ended), and the client's. */
  close(): void {
    // 1000: a WebSocket client may send no other code below 3000 (the owner's clients reconnect).
    if (this.#socket.readyState <= 1) this.#socket.close(1000);
    this.#client?.close(BridgeCloseCode.GoingAway, "");
  }

  #end(by: "client" | "owner", code: number): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#onEnded?.(by, code);
  }
}

/** Why {@link connectOwner} failed: the owner answered with a close, or never answered at all. */
export class OwnerSocketError extends Error {
  /** `refused`: the owner closed the socket (it is alive); `unreachable`: no answer, or no connection. */
  readonly kind: "refused" | "unreachable";

  constructor(kind: "refused" | "unreachable", message: string) {
    super(message);
    this.name = "OwnerSocketError";
    this.kind = kind;
  }
}

/**
 * Opens a socket to the owner's `url` offering `protocols`, and resolves once it is open, before
 * this node accepts the client's upgrade: an owner that cannot be reached is then an HTTP error
 * the proxy and client see, not an accepted socket that closes at once. Rejects with an
 * {@link OwnerSocketError} on an error, a close, `timeoutMs` without an answer, or `signal`.
 */
export function connectOwner(
  url: string,
  protocols: readonly string[],
  WebSocket: OwnerSocketConstructor,
  timeoutMs = 5_000,
  signal?: AbortSignal,
): Promise<OwnerLink> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, [...protocols]);
    const link = new OwnerLink(socket);
    let settled = false;
    const fail = (kind: "refused" | "unreachable", why: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", aborted);
      reject(new OwnerSocketError(kind, `The owner at ${url} ${why}`));
    };
    const aborted = () => {
      fail("unreachable", "was given up on");
      socket.close();
    };
    signal?.addEventListener("abort", aborted, { once: true });
    const timer = setTimeout(() => {
      fail("unreachable", `did not answer within ${timeoutMs} ms`);
      socket.close();
    }, timeoutMs);
    socket.addEventListener("open", () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", aborted);
      resolve(link);
    });
    socket.addEventListener("error", () => fail("unreachable", "could not be reached"));
    socket.addEventListener("close", (event) =>
      fail(
        event.code === 1006 || event.code === undefined ? "unreachable" : "refused",
        `refused the socket (${event.code ?? "error"})`,
      ),
    );
  });
}

/** A frame's payload as text or bytes (a Blob, which the runtimes here never give, is dropped). */
function frame(data: unknown): string | ArrayBuffer | undefined {
  if (typeof data === "string" || data instanceof ArrayBuffer) return data;
  if (ArrayBuffer.isView(data)) {
    return data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer;
  }
  return undefined;
}

/** `code` if an endpoint may send it in a close frame, else `fallback` (1005, 1006, 1015 may not). */
function sendable(code: number, fallback: number): number {
  const valid =
    code === 1000 ||
    (code >= 1001 && code <= 1014 && ![1004, 1005, 1006].includes(code)) ||
    (code >= 3000 && code <= 4999);
  return valid ? code : fallback;
}
