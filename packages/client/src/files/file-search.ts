/**
 * The seam between a `@` mention menu and where a workspace's files are searched: a bridge's file
 * search API ({@link BridgeFileSearch}), the Node index of `@pi-kit/client/node`, or a fake in tests.
 * @module
 */
import type { FileSearchPage } from "@pi-kit/protocol/bridge";
import { MAX_FILE_QUERY_LENGTH } from "@pi-kit/protocol/bridge";

/** One search: a fuzzy query and the page wanted. */
export interface FileSearchQuery {
  /** What to match against workspace paths (fuzzy; `""` lists the shallowest first). */
  readonly query: string;
  /** The page size. Default 50, at most 200. */
  readonly limit?: number;
  /** The `nextCursor` of the previous page. */
  readonly cursor?: string;
  /** Cancels the search. */
  readonly signal?: AbortSignal;
}

/**
 * Searches a workspace's files and directories; rejects with a `SessionHistoryError`
 * (`invalid_request`, host code `invalid_query` or `invalid_cursor`, for bad input).
 */
export interface FileSearch {
  /** One page of the entries matching `query`, best first. */
  search(query: FileSearchQuery): Promise<FileSearchPage>;
}

/** Why `query` is not a file search query, or `undefined` when it is one. */
export function fileQueryProblem(query: string): string | undefined {
  if (query.length > MAX_FILE_QUERY_LENGTH) {
    return `The query is longer than ${MAX_FILE_QUERY_LENGTH} characters`;
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing them is the point.
  if (/[\u0000-\u001f\u007f]/.test(query)) return "The query has control characters";
  // Paths are relative to the workspace: nothing above it or absolute can match, so say so.
  if (/^[/\\~]|^[a-zA-Z]:[/\\]/.test(query) || /(^|[/\\])\.\.([/\\]|$)/.test(query)) {
    return "The query must be a path inside the workspace (no `..`, not absolute)";
  }
  return undefined;
}

/** The offset a cursor stands for, or `undefined` when it is no cursor a search gave out. */
export function parseFileCursor(cursor: string): number | undefined {
  return /^\d{1,9}$/.test(cursor) ? Number(cursor) : undefined;
}

/** The cursor of the page that starts at `offset`. */
export function fileCursor(offset: number): string {
  return String(offset);
}
