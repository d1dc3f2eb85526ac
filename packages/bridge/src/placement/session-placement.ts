/**
 * Where a session may run: which sessions this bridge may run (whose a session is, its owner, is
 * another matter: see `principals/`). Only one process may ever run pi on a session (pi appends to
 * its file without a lock, so two writers corrupt it unnoticed): the registry claims a session
 * before its pi starts or its files change, and releases it once no pi of its runs here. One
 * bridge on its own directory may run every session in it (see {@link SessionsDirPlacement});
 * bridges sharing a directory need a claim per session instead (a lease), behind this same interface.
 */
import type { SessionKey } from "../principals/owner.ts";

/** The right of this bridge to run pi on a session and touch its files. */
export interface SessionPlacement {
  /**
   * Claims session `key` for this bridge, before its pi starts or any of its files change.
   * Rejects with a `BridgeError` when another process runs it.
   */
  claim(key: SessionKey): Promise<void>;
  /** Gives session `key` up: this bridge stopped its pi and no longer runs it. */
  release(key: SessionKey): Promise<void>;
  /**
   * The session file `key`'s pi must resume (absolute), when the placement records one (a
   * lease names it); otherwise the history picks the file written last.
   */
  resumableFile?(key: SessionKey): string | undefined;
  /** Records the file `key`'s pi writes (absolute), for whichever node runs the session next. */
  recordFile?(key: SessionKey, file: string): Promise<void>;
  /** Gives up every session this bridge may run (it shuts down, after stopping every pi). */
  close(): Promise<void>;
}
