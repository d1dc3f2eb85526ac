/**
 * Which sessions this bridge may run. Only one process may ever run pi on a session (pi appends to
 * its file without a lock, so two writers corrupt it unnoticed): the registry claims a session
 * before its pi starts or its files change, and releases it once no pi of its runs here. One
 * bridge on its own directory owns every session in it (see {@link SessionsDirOwnership}); bridges
 * sharing a directory need an ownership per session instead (a lease), behind this same interface.
 */
import type { SessionKey } from "../sessions/owner.ts";

/** The right of this bridge to run pi on a session and touch its files. */
export interface SessionOwnership {
  /**
   * Claims session `key` for this bridge, before its pi starts or any of its files change.
   * Rejects with a `BridgeError` when another process owns it.
   */
  claim(key: SessionKey): Promise<void>;
  /** Gives session `key` up: this bridge stopped its pi and no longer runs it. */
  release(key: SessionKey): Promise<void>;
  /**
   * The session file `key`'s pi must resume (absolute), when the ownership records one (a lease
   * names it); otherwise the history picks the file written last.
   */
  resumableFile?(key: SessionKey): string | undefined;
  /** Records the file `key`'s pi writes (absolute), for whoever owns the session next. */
  recordFile?(key: SessionKey, file: string): Promise<void>;
  /** Gives up everything this bridge owns (it shuts down, after stopping every pi). */
  close(): Promise<void>;
}
