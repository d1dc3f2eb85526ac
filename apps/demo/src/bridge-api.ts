/** The bridge's session API, as the demo page uses it. */

/** One bridge session, as `GET /api/sessions` lists it. */
export interface BridgeSession {
  readonly name: string;
  readonly state: string;
  readonly lastActivity: string | number;
  readonly attached?: boolean;
}

/** A failed API call, with its HTTP status (401: the token was refused). */
export class ApiError extends Error {
  readonly status: number;

  constructor(message: string, status: number) {
    super(message);
    this.name = "ApiError";
    this.status = status;
  }
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

  /** Starts session `name` (again, when its pi has stopped). */
  async create(name: string): Promise<void> {
    await this.#call("POST", "/api/sessions", { name });
  }

  /** Stops a session's pi; its conversation stays on disk and resumes when opened. */
  async close(name: string): Promise<void> {
    await this.#call("POST", `/api/sessions/${encodeURIComponent(name)}/stop`);
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
    if (!response.ok) {
      const text = await response.text();
      throw new ApiError(`${method} ${path}: ${response.status} ${text}`, response.status);
    }
    return response.status === 204 ? undefined : response.json();
  }
}
