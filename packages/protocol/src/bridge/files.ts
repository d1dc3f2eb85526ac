/**
 * The file search API's bodies: the workspace files and directories a `@` mention can name, found
 * by a fuzzy query (`GET /api/sessions/{name}/files?q=`), best match first, in pages.
 * @module
 */

/** Whether a search result is a file or a directory. */
export type WorkspaceEntryKind = "file" | "directory";

/** One file or directory of a session's workspace that matches a search. */
export interface WorkspaceEntry {
  /** Its path relative to the workspace, `/`-separated, without a leading `./` or trailing `/`. */
  readonly path: string;
  /** A file or a directory. */
  readonly kind: WorkspaceEntryKind;
}

/** One page of a workspace file search, best match first. */
export interface FileSearchPage {
  readonly entries: readonly WorkspaceEntry[];
  /** Pass it as `cursor` for the next page; `null` on the last page. */
  readonly nextCursor: string | null;
}

/** The longest query the file search accepts, in UTF-16 code units. */
export const MAX_FILE_QUERY_LENGTH = 256;

/** The page size of a file search that names none. */
export const DEFAULT_FILE_PAGE_SIZE = 50;

/** The largest page a file search serves; a larger `limit` is capped to it. */
export const MAX_FILE_PAGE_SIZE = 200;
