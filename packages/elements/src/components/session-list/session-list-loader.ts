/**
 * How `<pi-session-list>` loads the history, apart from its DOM: one request at a time (a new one
 * supersedes the one in flight, but a refresh asked for during a refresh runs once after it), the
 * cursor of the next page, and whether a first page has arrived.
 */
import type { SessionHistory, SessionSummary } from "@pi-kit/client";
import { withPage } from "./session-pages.ts";

/** What a load does: start over, merge a fresh first page in front, or append the next page. */
export type LoadMode = "reset" | "refresh" | "more";

/** The list a loader fills: what it reads at each load, and the state it sets. */
export interface SessionListState {
  readonly history: SessionHistory | undefined;
  readonly pageSize: number;
  /** The conversations shown: the loader reads them to merge a page in, and sets the result. */
  sessions: readonly SessionSummary[];
  /** True while a request is in flight. */
  loading: boolean;
  /** Why the last load failed; cleared when one starts. */
  error: string | undefined;
}

/** What a loader asks of its list besides its state. */
export interface SessionListLoaderHooks {
  /** The search text, trimmed (`""`: everything). */
  query(): string;
  /** A page of `mode` arrived for `query`. */
  loaded(mode: LoadMode, query: string): void;
  /** A load failed (not one that was superseded). */
  failed(error: unknown): void;
}

/** Loads the pages of a session list's history; see the module description. */
export class SessionListLoader {
  readonly #list: SessionListState;
  readonly #hooks: SessionListLoaderHooks;
  #nextCursor: string | null = null;
  #loadedOnce = false;
  #request: AbortController | undefined;
  /** What the request in flight does: a refresh asked for meanwhile waits for a refresh only. */
  #requestMode: LoadMode | undefined;
  #refreshAgain = false;

  constructor(list: SessionListState, hooks: SessionListLoaderHooks) {
    this.#list = list;
    this.#hooks = hooks;
  }

  /** True when there is a next page. */
  get hasMore(): boolean {
    return this.#nextCursor !== null;
  }

  /** True once a first page has arrived (since the last {@link forget}). */
  get loadedOnce(): boolean {
    return this.#loadedOnce;
  }

  /** Forgets the pages loaded (a new history, a new page size); the next load starts over. */
  forget(): void {
    this.#nextCursor = null;
    this.#loadedOnce = false;
  }

  /** Stops the request in flight (the list left the page). */
  abort(): void {
    this.#request?.abort();
  }

  /** Loads as `mode` says; settles once the page is in (or the load failed or was superseded). */
  async load(mode: LoadMode): Promise<void> {
    const list = this.#list;
    const history = list.history;
    if (history === undefined) return;
    if (mode === "more" && this.#nextCursor === null) return;
    // A refresh asked for while one is in flight (a switch of conversations asks twice) runs once
    // after it, rather than cancelling it; anything else supersedes the request in flight.
    if (mode === "refresh" && this.#requestMode === "refresh") {
      this.#refreshAgain = true;
      return;
    }
    this.#request?.abort();
    const request = new AbortController();
    this.#request = request;
    this.#requestMode = mode;
    if (mode === "reset") this.#refreshAgain = false;
    const query = this.#hooks.query();
    list.loading = true;
    list.error = undefined;
    try {
      const page = await history.list({
        limit: list.pageSize,
        ...(mode === "more" && this.#nextCursor !== null ? { cursor: this.#nextCursor } : {}),
        ...(query ? { query } : {}),
        signal: request.signal,
      });
      if (request.signal.aborted) return;
      const next = withPage(
        mode === "refresh" && !this.#loadedOnce ? "reset" : mode,
        { sessions: list.sessions, nextCursor: this.#nextCursor },
        page,
      );
      list.sessions = next.sessions;
      this.#nextCursor = next.nextCursor;
      this.#loadedOnce = true;
      this.#hooks.loaded(mode, query);
    } catch (error) {
      if (request.signal.aborted) return;
      list.error = error instanceof Error ? error.message : String(error);
      this.#hooks.failed(error);
    } finally {
      if (this.#request === request) {
        this.#request = undefined;
        this.#requestMode = undefined;
        list.loading = false;
        if (this.#refreshAgain) {
          this.#refreshAgain = false;
          void this.load("refresh");
        }
      }
    }
  }
}
