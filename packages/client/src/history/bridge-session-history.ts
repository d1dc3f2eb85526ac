/**
 * The {@link SessionHistory} of a `@pi-kit/bridge`, over its HTTP API with `fetch`: it runs in
 * browsers, Node, Deno and Bun. Every call takes an `AbortSignal` and rejects with a
 * {@link SessionHistoryError}.
 */
import type { SessionPage, SessionSummary } from "@pi-kit/protocol/bridge";
import type { BridgeToken } from "../transports/websocket/protocols.ts";
import { badResponse, bridgeJsonCall } from "./bridge-json-call.ts";
import { SessionHistoryError } from "./history-error.ts";
import type { SessionHistory, SessionListQuery } from "./session-history.ts";

/** Options of {@link BridgeSessionHistory}. */
export interface BridgeSessionHistoryOptions {
  /**
   * Where the bridge is: its base URL (`http://127.0.0.1:8787`), or where an app mounts it
   * (`https://app.example/pi`, or `/pi` in a page of the same origin).
   */
  readonly baseUrl: string | URL;
  /**
   * The bridge's token or a per-user ticket, sent as `Authorization: Bearer <token>`, or a function
   * returning a fresh one for each call; omit it when a proxy adds it.
   */
  readonly token?: BridgeToken;
  /** The `fetch` to use. Default: the global one. */
  readonly fetch?: typeof fetch;
}

/** Options of one call. */
export interface HistoryCallOptions {
  /** Cancels the call: it rejects with a `cancelled` {@link SessionHistoryError}. */
  readonly signal?: AbortSignal;
}

/**
 * A bridge's history of sessions.
 * @example
 * const history = new BridgeSessionHistory({ baseUrl: "http://127.0.0.1:8787", token });
 * const { sessions, nextCursor } = await history.list({ limit: 50 });
 */
export class BridgeSessionHistory implements SessionHistory {
  readonly #base: string;
  readonly #token: BridgeToken | undefined;
  readonly #fetch: typeof fetch;

  constructor(options: BridgeSessionHistoryOptions) {
    this.#base = `${String(options.baseUrl).replace(/\/+$/, "")}/api/sessions`;
    this.#token = options.token;
    // Unbound, a browser's fetch throws "Illegal invocation".
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  /** Lists one page, newest activity first. */
  async list(query: SessionListQuery = {}): Promise<SessionPage> {
    const params = new URLSearchParams();
    if (query.limit !== undefined) params.set("limit", String(query.limit));
    if (query.cursor !== undefined) params.set("cursor", query.cursor);
    if (query.query !== undefined && query.query !== "") params.set("q", query.query);
    const search = params.toString();
    const body = await this.#call(
      "GET",
      search === "" ? "" : `?${search}`,
      undefined,
      query.signal,
    );
    const { sessions, nextCursor } = body as { sessions?: unknown; nextCursor?: unknown };
    if (!Array.isArray(sessions) || !sessions.every(isSummary)) throw badResponse("sessions");
    if (nextCursor !== null && typeof nextCursor !== "string") throw badResponse("nextCursor");
    return { sessions, nextCursor };
  }

  /** The summary of session `name`, or `undefined` when there is none. */
  async get(name: string, options: HistoryCallOptions = {}): Promise<SessionSummary | undefined> {
    try {
      return summaryOf(
        await this.#call("GET", `/${encodeURIComponent(name)}`, undefined, options.signal),
      );
    } catch (error) {
      if (error instanceof SessionHistoryError && error.code === "not_found") return undefined;
      throw error;
    }
  }

  /** Creates session `name` (a random name when omitted), or opens it when it exists; its pi starts. */
  async create(name?: string, options: HistoryCallOptions = {}): Promise<SessionSummary> {
    const body = name === undefined ? {} : { name };
    return summaryOf(await this.#call("POST", "", body, options.signal));
  }

  /** Sets session `name`'s title (pi's session name), whether or not its pi runs. */
  async rename(
    name: string,
    title: string,
    options: HistoryCallOptions = {},
  ): Promise<SessionSummary> {
    const path = `/${encodeURIComponent(name)}`;
    return summaryOf(await this.#call("PATCH", path, { title }, options.signal));
  }

  /** Stops session `name`'s pi and removes its files. */
  async delete(name: string, options: HistoryCallOptions = {}): Promise<void> {
    await this.#call("DELETE", `/${encodeURIComponent(name)}`, undefined, options.signal);
  }

  /** Stops session `name`'s pi and keeps its files; it resumes when opened again. */
  async stop(name: string, options: HistoryCallOptions = {}): Promise<SessionSummary> {
    const path = `/${encodeURIComponent(name)}/stop`;
    return summaryOf(await this.#call("POST", path, undefined, options.signal));
  }

  /** One request; resolves the JSON body (`undefined` for 204), rejects with a typed error. */
  #call(
    method: string,
    path: string,
    body: unknown,
    signal: AbortSignal | undefined,
  ): Promise<unknown> {
    return bridgeJsonCall({
      fetch: this.#fetch,
      url: `${this.#base}${path}`,
      method,
      body,
      token: this.#token,
      signal,
    });
  }
}

/** The `session` of a `{session}` answer. */
function summaryOf(body: unknown): SessionSummary {
  const session = (body as { session?: unknown } | undefined)?.session;
  if (!isSummary(session)) throw badResponse("session");
  return session;
}

/** Whether `value` has a summary's required fields with their types. */
function isSummary(value: unknown): value is SessionSummary {
  if (typeof value !== "object" || value === null) return false;
  const s = value as Record<string, unknown>;
  return (
    typeof s.name === "string" &&
    typeof s.title === "string" &&
    typeof s.createdAt === "string" &&
    typeof s.lastActivity === "string" &&
    typeof s.messageCount === "number" &&
    (s.state === "running" || s.state === "idle" || s.state === "stopped") &&
    typeof s.sizeBytes === "number" &&
    (s.forks === undefined || (Array.isArray(s.forks) && s.forks.every(isFork)))
  );
}

/** Whether `value` has a fork's required fields with their types. */
function isFork(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  const f = value as Record<string, unknown>;
  return (
    typeof f.file === "string" &&
    typeof f.title === "string" &&
    typeof f.createdAt === "string" &&
    typeof f.lastActivity === "string" &&
    typeof f.messageCount === "number" &&
    typeof f.current === "boolean" &&
    (f.forkedFrom === undefined || typeof f.forkedFrom === "string")
  );
}
