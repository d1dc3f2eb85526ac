/**
 * The single-machine {@link SessionPlacement}: the bridge holds the exclusive lock on its sessions
 * directory (see `lockSessionsDir`) for as long as it runs, and so may run every session in it.
 * Claiming and releasing one session therefore have nothing to do. Losing the lock (another bridge
 * took the directory over while this one was frozen) loses every session at once.
 */

import type { SessionPlacement } from "./session-placement.ts";
import {
  lockSessionsDir,
  type SessionsDirHolder,
  type SessionsDirLock,
} from "./sessions-dir-lock.ts";

/** Options of a {@link SessionsDirPlacement}. */
export interface SessionsDirPlacementOptions {
  /** Where clients reach this bridge: recorded in the lock, for the message of a second bridge. */
  readonly url?: string;
  /** Called when another process took the directory over: every pi here must stop now. */
  readonly onLost: (holder: SessionsDirHolder | undefined) => void;
}

/** The right to run every session in one sessions directory, by its lock. */
export class SessionsDirPlacement implements SessionPlacement {
  readonly #lock: SessionsDirLock;

  /** Takes the directory's lock; throws `SessionsDirInUseError` when another bridge holds it. */
  constructor(sessionsDir: string, options: SessionsDirPlacementOptions) {
    this.#lock = lockSessionsDir(sessionsDir, {
      ...(options.url === undefined ? {} : { url: options.url }),
      onLost: options.onLost,
    });
  }

  /** The directory's lock covers every session in it. */
  claim(): Promise<void> {
    return Promise.resolve();
  }

  /** The lock stays until the bridge closes. */
  release(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.#lock.release();
    return Promise.resolve();
  }
}
