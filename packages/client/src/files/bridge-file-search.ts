/**
 * The {@link FileSearch} of one bridge session's workspace, over the bridge's file search API with
 * `fetch`: it runs in browsers, Node, Deno and Bun. Every call takes an `AbortSignal` and rejects
 * with a `SessionHistoryError` (the history API's error: the same statuses, the same codes).
 */
import type { FileSearchPage, WorkspaceEntry } from "@pi-kit/protocol/bridge";
import { badResponse } from "../history/bridge-json-call.ts";
import { SessionApi } from "../history/session-api.ts";
import type { BridgeToken } from "../transports/websocket/protocols.ts";
import type { FileSearch, FileSearchQuery } from "./file-search.ts";

/** Options of {@link BridgeFileSearch}. */
export interface BridgeFileSearchOptions {
  /** Where the bridge is: its base URL, or where an app mounts it (`/pi` in a page of the same origin). */
  readonly baseUrl: string | URL;
  /** The session whose workspace this searches. */
  readonly session: string;
  /** The bridge's token or a per-user ticket (or a function returning a fresh one for each call). */
  readonly token?: BridgeToken;
  /** The `fetch` to use. Default: the global one. */
  readonly fetch?: typeof fetch;
}

/**
 * Searches a bridge session's workspace for `@` mentions.
 * @example
 * const files = new BridgeFileSearch({ baseUrl: "http://127.0.0.1:8787", session: "alpha", token });
 * const { entries, nextCursor } = await files.search({ query: "readme", limit: 20 });
 */
export class BridgeFileSearch implements FileSearch {
  readonly #api: SessionApi;

  constructor(options: BridgeFileSearchOptions) {
    this.#api = new SessionApi(options, "/files");
  }

  /** One page of the workspace's files and directories matching `query.query`, best first. */
  async search(query: FileSearchQuery): Promise<FileSearchPage> {
    const params = new URLSearchParams({ q: query.query });
    if (query.limit !== undefined) params.set("limit", String(query.limit));
    if (query.cursor !== undefined) params.set("cursor", query.cursor);
    const body = await this.#api.call("GET", `?${params}`, {}, query.signal);
    const { entries, nextCursor } = (body ?? {}) as { entries?: unknown; nextCursor?: unknown };
    if (!Array.isArray(entries) || !entries.every(isEntry)) throw badResponse("entries");
    if (nextCursor !== null && typeof nextCursor !== "string") throw badResponse("nextCursor");
    return { entries, nextCursor };
  }
}

function isEntry(value: unknown): value is WorkspaceEntry {
  if (typeof value !== "object" || value === null) return false;
  const e = value as Record<string, unknown>;
  return typeof e.path === "string" && (e.kind === "file" || e.kind === "directory");
}
