/**
 * The sandbox option: how each pi is confined. A sandbox turns the spawn of one session's pi into
 * the spawn of a confined pi; the bridge checks at start that it can work at all.
 */
import type { ChildProcessOptions } from "@pi-kit/client/process";

/** Runs each pi under bubblewrap (Linux; Debian's and Ubuntu's `bubblewrap` package). */
export interface BwrapSandboxOptions {
  readonly kind: "bwrap";
  /** The bubblewrap executable. Default `bwrap` on `PATH`. */
  readonly command?: string;
  /** More host paths pi may read, for example a pi install under a home directory. */
  readonly readOnly?: readonly string[];
  /** More host paths pi may write, besides its workspace and its session directory. */
  readonly writable?: readonly string[];
  /**
   * More host paths to take away (a directory shows empty, a file empty): secrets outside the
   * home directories that this user can read, such as the bridge's token file.
   */
  readonly hidden?: readonly string[];
  /** Whether pi keeps the network: it must reach its model provider. Default `true`. */
  readonly network?: boolean;
}

/** How each pi is confined: `"bwrap"` is bubblewrap with the defaults. */
export type SandboxOption = "bwrap" | BwrapSandboxOptions;

/** A sandbox, ready to confine each session's pi. */
export interface Sandbox {
  /** The executable the confined spawn runs (for the readiness check). */
  readonly command: string;
  /** The spawn options that run `options` confined to the session in `sessionDir`. */
  wrap(options: ChildProcessOptions, sessionDir: string): Promise<ChildProcessOptions>;
}
