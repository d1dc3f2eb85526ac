/**
 * The file search behind `GET /api/sessions/{name}/files`: one warm `WorkspaceFileIndex` per
 * workspace (a session's own under a workspaces directory, else pi's shared working directory),
 * the least recently searched closed past a cap. Confinement is the index's: it walks only inside
 * the workspace, never through a link that leads out, and refuses queries with `..`.
 */
import { join } from "node:path";
import { SessionHistoryError } from "@pi-kit/client";
import { WorkspaceFileIndex } from "@pi-kit/client/node";
import type { FileSearchPage } from "@pi-kit/protocol/bridge";
import { BridgeErrorCode } from "@pi-kit/protocol/bridge";
import { BridgeError } from "../errors/bridge-error.ts";
import type { SessionKey } from "../principals/owner.ts";
import type { Workspaces } from "../sessions/workspaces.ts";

/** The most workspaces kept indexed (and watched) at once. */
const MAX_INDEXES = 16;

/** One search request, as the query string gives it. */
export interface FileSearchRequest {
  readonly q?: string | undefined;
  readonly limit?: string | undefined;
  readonly cursor?: string | undefined;
}

/** The workspace file indexes of a bridge. */
export class SessionFiles {
  readonly #workspaces: Workspaces | undefined;
  readonly #cwd: string;
  /** Insertion order is recency: a search moves its index to the end. */
  readonly #indexes = new Map<string, WorkspaceFileIndex>();

  /** `cwd` is pi's working directory, every session's workspace when there is no `workspaces`. */
  constructor(workspaces: Workspaces | undefined, cwd: string) {
    this.#workspaces = workspaces;
    this.#cwd = cwd;
  }

  /** One page of the files of session `key`'s workspace matching the request. */
  async search(key: SessionKey, request: FileSearchRequest): Promise<FileSearchPage> {
    const limit = request.limit === undefined || request.limit === "" ? undefined : request.limit;
    if (limit !== undefined && !/^\d{1,9}$/.test(limit)) {
      throw new BridgeError(
        BridgeErrorCode.InvalidRequest,
        "`limit` must be a whole number from 1",
      );
    }
    try {
      return await this.#index(key).search({
        query: request.q ?? "",
        ...(limit === undefined ? {} : { limit: Number(limit) }),
        ...(request.cursor ? { cursor: request.cursor } : {}),
      });
    } catch (error) {
      if (!(error instanceof SessionHistoryError)) throw error;
      const code =
        error.hostCode === "invalid_query"
          ? BridgeErrorCode.InvalidQuery
          : error.hostCode === "invalid_cursor"
            ? BridgeErrorCode.InvalidCursor
            : BridgeErrorCode.InvalidRequest;
      throw new BridgeError(code, error.message);
    }
  }

  /** Stops every watch. */
  close(): void {
    for (const index of this.#indexes.values()) index.close();
    this.#indexes.clear();
  }

  #index(key: SessionKey): WorkspaceFileIndex {
    const workspace = this.#workspaces === undefined ? this.#cwd : join(this.#workspaces.dir, key);
    let index = this.#indexes.get(workspace);
    if (index !== undefined) this.#indexes.delete(workspace);
    else index = new WorkspaceFileIndex({ workspace });
    this.#indexes.set(workspace, index);
    if (this.#indexes.size > MAX_INDEXES) {
      const [oldest, evicted] = this.#indexes.entries().next().value as [
        string,
        WorkspaceFileIndex,
      ];
      evicted.close();
      this.#indexes.delete(oldest);
    }
    return index;
  }
}
