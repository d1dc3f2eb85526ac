import type { BridgeToken, PiClient } from "@pi-kit/client";
import type { ReactiveController, ReactiveControllerHost } from "lit";
import { PiErrorEvent } from "./events.ts";

/** Where an element with `src` gets its bridge token. */
export type TokenSource = "attribute" | "fragment" | "event";

/** An element that connects itself to the bridge session at its `src`. */
export interface SrcHost extends ReactiveControllerHost, HTMLElement {
  src: string | undefined;
  tokenFrom: TokenSource | undefined;
  token: string | undefined;
  client: PiClient | undefined;
}

/**
 * Fired (bubbling, composed) by an element with `src` and `token-from="event"` when it needs a
 * bridge token (when it connects, and again for each reconnect); answer with `respondWith`.
 * Unanswered, the element waits for its `token` property.
 */
export class PiTokenRequestEvent extends Event {
  #token: Promise<string> | undefined;

  constructor() {
    super("pi-token-request", { bubbles: true, composed: true });
  }

  /** Gives the token, now or later. */
  respondWith(token: string | PromiseLike<string>): void {
    this.#token = Promise.resolve(token);
  }

  /** The answer, if a listener gave one. */
  get token(): Promise<string> | undefined {
    return this.#token;
  }
}

/**
 * Connects its host to the bridge session at `src` by itself: a reconnecting WebSocket transport
 * and a `PiClient`, set as the host's `client`, so a page needs no script of its own. Changing
 * `src` or the token reconnects; removing the element closes the client it made. The client
 * package is imported on first use, so elements without `src` do not load the transport.
 */
export class SrcController implements ReactiveController {
  readonly #host: SrcHost;
  /** What the current connection was made from; `undefined` when there is none. */
  #key: string | undefined;
  /** Stops the current attempt and closes what it made. */
  #stop: AbortController | undefined;

  constructor(host: SrcHost) {
    this.#host = host;
    host.addController(this);
  }

  hostUpdate(): void {
    const { src, tokenFrom, token } = this.#host;
    const key = src ? JSON.stringify([src, tokenFrom, tokenFrom === "fragment" ? "" : token]) : "";
    if (key === this.#key) return;
    this.#key = key;
    this.#disconnect();
    if (src) {
      this.#stop = new AbortController();
      void this.#connect(src, this.#stop.signal);
    }
  }

  hostDisconnected(): void {
    this.#key = undefined;
    this.#disconnect();
  }

  #disconnect(): void {
    this.#stop?.abort();
    this.#stop = undefined;
  }

  async #connect(src: string, signal: AbortSignal): Promise<void> {
    const host = this.#host;
    try {
      const token = await tokenFor(host);
      if (signal.aborted || token === null) return;
      const { createWebSocketTransport, PiClient } = await import("@pi-kit/client");
      if (signal.aborted) return;
      // The transport closes with the signal, and with it the client.
      const url = new URL(src, document.baseURI);
      const client = await PiClient.connect(createWebSocketTransport({ url, token, signal }), {
        signal,
      });
      if (signal.aborted) return;
      host.client = client;
      signal.addEventListener("abort", () => {
        if (host.client === client) host.client = undefined;
      });
    } catch (error) {
      if (!signal.aborted) host.dispatchEvent(new PiErrorEvent("connect", error));
    }
  }
}

/**
 * The bridge token for a host's `src`, from where its `tokenFrom` says: `undefined` for none,
 * `null` to wait (a `pi-token-request` nobody answered yet). An answered request gives a function
 * the transport calls for each connection: the first gets that answer, each later one (a
 * reconnect) asks the page again, so it can hand out a fresh short-lived ticket; a page that does
 * not answer again keeps the last token.
 */
export async function tokenFor(host: SrcHost): Promise<BridgeToken | undefined | null> {
  switch (host.tokenFrom) {
    case "fragment":
      return new URLSearchParams(location.hash.slice(1)).get("token") ?? undefined;
    case "event": {
      if (host.token) return host.token;
      const first = requestToken(host);
      if (first === undefined) return null;
      let last: Promise<string> | undefined;
      return () => {
        last = last === undefined ? first : (requestToken(host) ?? last);
        return last;
      };
    }
    default:
      return host.token || undefined;
  }
}

/** Asks the page for a token with a `pi-token-request`; `undefined` when nobody answered. */
function requestToken(host: SrcHost): Promise<string> | undefined {
  const request = new PiTokenRequestEvent();
  host.dispatchEvent(request);
  return request.token;
}

declare global {
  interface GlobalEventHandlersEventMap {
    "pi-token-request": PiTokenRequestEvent;
  }
}
