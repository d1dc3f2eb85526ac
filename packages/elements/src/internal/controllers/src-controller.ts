import type { BridgeToken, PiClient } from "@pi-kit/client";
import type { ReactiveController, ReactiveControllerHost } from "lit";
import { PiErrorEvent } from "../../events/pi-error.ts";
import { PiTokenRequestEvent } from "../../events/pi-token-request.ts";

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
 * Where an element's own `src` connection stands before (or instead of) a client: `idle` with no
 * `src` or once the client is set, `connecting` for the first attempt, `reconnecting` while the
 * bridge is unreachable or refuses for now (too many sessions; retried with backoff), `failed`
 * when it refused for good (a wrong or missing token, a foreign origin, an expired ticket).
 */
export type SrcPhase =
  | { readonly status: "idle" }
  | { readonly status: "connecting" }
  | { readonly status: "reconnecting"; readonly error: unknown }
  | { readonly status: "failed"; readonly error: unknown };

const IDLE: SrcPhase = { status: "idle" };

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
  #phase: SrcPhase = IDLE;

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

  /** Where the connection to `src` stands (see {@link SrcPhase}). */
  get phase(): SrcPhase {
    return this.#phase;
  }

  #setPhase(phase: SrcPhase): void {
    if (phase === this.#phase) return;
    this.#phase = phase;
    this.#host.requestUpdate();
  }

  #disconnect(): void {
    this.#stop?.abort();
    this.#stop = undefined;
    this.#setPhase(IDLE);
  }

  async #connect(src: string, signal: AbortSignal, attempt = 1): Promise<void> {
    const host = this.#host;
    let retryIn: number | undefined;
    try {
      const token = await tokenFor(host);
      if (signal.aborted || token === null) return;
      if (attempt === 1) this.#setPhase({ status: "connecting" });
      const { createWebSocketTransport, PiClient, backoffDelay, resolveBackoff } = await import(
        "./src-connect.ts"
      );
      if (signal.aborted) return;
      // The transport closes with the signal, and with it the client.
      const url = new URL(src, document.baseURI);
      const transport = createWebSocketTransport({ url, token, signal });
      const client = await PiClient.connect(transport, { signal }).catch((error: unknown) => {
        // A bridge that is down (or full for now) is tried again, as a dropped connection is.
        if ((error as { code?: unknown }).code !== "bridge_unreachable") throw error;
        retryIn = backoffDelay(attempt, resolveBackoff());
        this.#setPhase({ status: "reconnecting", error });
        return undefined;
      });
      if (signal.aborted || client === undefined) return;
      host.client = client;
      this.#setPhase(IDLE);
      signal.addEventListener("abort", () => {
        if (host.client === client) host.client = undefined;
      });
    } catch (error) {
      if (signal.aborted) return;
      this.#setPhase({ status: "failed", error });
      host.dispatchEvent(new PiErrorEvent("connect", error));
    } finally {
      if (retryIn !== undefined && !signal.aborted) {
        const retry = setTimeout(() => void this.#connect(src, signal, attempt + 1), retryIn);
        signal.addEventListener("abort", () => clearTimeout(retry), { once: true });
      }
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
