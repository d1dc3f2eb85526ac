/**
 * One bridge session's HTTP API as its clients call it: the session's URL, the credential, the
 * `fetch` and, for what only the controller may do, the caller's socket. The file search, uploads
 * and changes APIs share it.
 */
import type { BridgeToken } from "../transports/websocket/protocols.ts";
import { bridgeJsonCall } from "./bridge-json-call.ts";

/** Where a session's API is and how to reach it (the options its clients share). */
export interface SessionApiOptions {
  readonly baseUrl: string | URL;
  readonly session: string;
  readonly token?: BridgeToken | undefined;
  readonly fetch?: typeof fetch | undefined;
  readonly connectionId?: (() => number | undefined) | undefined;
}

/** What one call sends: JSON, or raw bytes (an upload's chunk). */
export type SessionApiBody = { readonly body?: unknown; readonly raw?: Blob };

/** The calls to one part of a session's API (`/api/sessions/<session><part>`). */
export class SessionApi {
  readonly #base: string;
  readonly #token: BridgeToken | undefined;
  readonly #fetch: typeof fetch;
  readonly #connectionId: () => number | undefined;

  constructor(options: SessionApiOptions, part: string) {
    const base = String(options.baseUrl).replace(/\/+$/, "");
    this.#base = `${base}/api/sessions/${encodeURIComponent(options.session)}${part}`;
    this.#token = options.token;
    // Unbound, a browser's fetch throws "Illegal invocation".
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#connectionId = options.connectionId ?? (() => undefined);
  }

  /**
   * One JSON call to `path` under the part; `write`: only the controller may, so the caller's
   * socket is named. Resolves the JSON body, rejects with a `SessionHistoryError`.
   */
  call(
    method: string,
    path: string,
    body: SessionApiBody,
    signal: AbortSignal | undefined,
    write = false,
  ): Promise<unknown> {
    return bridgeJsonCall({
      fetch: this.#fetch,
      url: `${this.#base}${path}`,
      method,
      ...body,
      token: this.#token,
      controller: write ? this.#connectionId() : undefined,
      signal,
    });
  }
}
