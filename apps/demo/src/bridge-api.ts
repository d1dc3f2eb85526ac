/** The bridge's session API, as the demo page uses it. */

/** One bridge session, as `GET /api/sessions` lists it. */
export interface BridgeSession {
  readonly name: string;
  readonly state: string;
  readonly lastActivity: string | number;
  readonly attached?: boolean;
}

/** Calls the bridge's HTTP API with the token in the Authorization header. */
export class BridgeApi {
  readonly #token: string;

  constructor(token: string) {
    this.#token = token;
  }

  /** Lists the sessions. */
  async list(): Promise<BridgeSession[]> {
    const body = (await this.#call("GET", "/api/sessions")) as { sessions: BridgeSession[] };
    return body.sessions;
  }

  /** Creates (or restarts) a session. */
  async create(name: string): Promise<void> {
    await this.#call("POST", "/api/sessions", { name });
  }

  /** Closes a session and stops its pi. */
  async close(name: string): Promise<void> {
    await this.#call("DELETE", `/api/sessions/${encodeURIComponent(name)}`);
  }

  async #call(method: string, path: string, body?: unknown): Promise<unknown> {
    const response = await fetch(path, {
      method,
      headers: {
        authorization: `Bearer ${this.#token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!response.ok)
      throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return response.status === 204 ? undefined : response.json();
  }
}
