/** What a bridge is made from: its options, and the limits it enforces with their defaults. */
import type {
  ChildProcessOptions,
  ChildProcessTransport,
  PermissionModesOptions,
  StopTimeouts,
} from "@pi-kit/client/process";
import type { CheckpointSettings } from "../checkpoints/checkpoint-store.ts";
import type { ClusterOptions } from "../cluster/cluster-settings.ts";
import type { BridgeLogger } from "../logging/logger.ts";
import type { SandboxOption } from "../sandbox/create-sandbox.ts";
import type { CommandPolicyOptions } from "../security/command-policy.ts";
import type { PairingOptions } from "../security/pairing.ts";
import type { TicketOptions } from "../security/tickets.ts";
import type { PiProcessSpec } from "../sessions/session-settings.ts";
import type { UploadSettings } from "../uploads/session-uploads.ts";

/** Limits of a bridge; every one has a default (see {@link DEFAULT_LIMITS}). */
export interface BridgeLimits {
  /** Most sessions at once. Default 16. Past it: HTTP 503. */
  readonly maxSessions?: number;
  /** Most sessions of one ticket user at once. Default 4. Past it: HTTP 503 (close 1013). */
  readonly maxSessionsPerUser?: number;
  /** How long a session without a client keeps its pi running. Default 30 s. */
  readonly graceMs?: number;
  /**
   * How long a session that starts again (a restarted bridge, a pi that exited) keeps control for
   * the viewer that had it, which gets it back on reconnecting with its viewer key; meanwhile the
   * others watch. 0: no wait, the first viewer back controls. Default 15 s.
   */
  readonly controlReclaimMs?: number;
  /** Reap an attached session after this long without a record either way; 0 = never. Default 1 h. */
  readonly idleMs?: number;
  /** Largest inbound message (one record) in UTF-8 bytes. Default 1 MiB. Past it: close 1009. */
  readonly maxRecordBytes?: number;
  /** Sustained inbound messages per second per connection. Default 50. Past it: close 1008. */
  readonly messagesPerSecond?: number;
  /** Inbound burst allowance per connection. Default 100. */
  readonly messageBurst?: number;
  /** Socket bytes queued before the bridge stops reading pi. Default 1 MiB. */
  readonly highWaterMark?: number;
  /** How long a socket may stay over the high-water mark before it is closed (1013). Default 30 s. */
  readonly stallTimeoutMs?: number;
  /** Open dialogs kept per session for re-sending. Default 32. */
  readonly maxPendingDialogs?: number;
  /** Bytes of input queued for a pi that does not read it before the client is shed. Default 8 MiB. */
  readonly maxStdinBytes?: number;
  /**
   * How often every socket gets a `bridge_ping` record, in ms (0: never): a client that hears
   * nothing for two intervals reconnects. Default 15 s; in cluster mode at most a third of the TTL.
   */
  readonly keepaliveMs?: number;
}

/** The defaults of {@link BridgeLimits}. */
export const DEFAULT_LIMITS: Readonly<Required<BridgeLimits>> = {
  maxSessions: 16,
  maxSessionsPerUser: 4,
  graceMs: 30_000,
  controlReclaimMs: 15_000,
  idleMs: 3_600_000,
  maxRecordBytes: 1024 * 1024,
  messagesPerSecond: 50,
  messageBurst: 100,
  highWaterMark: 1024 * 1024,
  stallTimeoutMs: 30_000,
  maxPendingDialogs: 32,
  maxStdinBytes: 8 * 1024 * 1024,
  keepaliveMs: 15_000,
};

/** Options of {@link createBridge}. */
export interface BridgeOptions {
  /** The pi command every session runs. Clients never choose the command or its arguments. */
  readonly pi: PiProcessSpec;
  /** The shared secret clients present (see `generateToken`): it opens the bridge's own sessions. */
  readonly token: string;
  /**
   * Accept per-user tickets (JWTs an application signs for its user) where the token travels:
   * each user opens only the sessions their ticket names, in a directory of their own.
   */
  readonly tickets?: TicketOptions;
  /**
   * Pairing tickets ("continue on another device", `POST /api/sessions/:name/pair`): how long one
   * can be redeemed (default a minute) and the clock. Pairing is always on; a paired device gets
   * no more than its minter's rights, for that one session.
   */
  readonly pairing?: PairingOptions;
  /**
   * The directory holding one session directory per session name (see `defaultSessionsDir`).
   * Created with mode 0700; refused when another user owns it or could write to it.
   */
  readonly sessionsDir: string;
  /**
   * Gives each session a working directory of its own in this directory, laid out as in
   * `sessionsDir` (a ticket user's under `_users/<user>/`), instead of every pi working in
   * `pi.cwd`: set it when several users share a bridge. Created with mode 0700 and refused when
   * unsafe, as `sessionsDir` is; a deleted session's workspace goes with it. Under the sandbox a
   * pi sees only its own workspace.
   */
  readonly workspacesDir?: string;
  /** pi arguments that put its session files in `sessionDir`. Default `["--session-dir", dir]`. */
  readonly sessionArgs?: (sessionDir: string) => readonly string[];
  /** Browser origins allowed to connect, e.g. `["http://localhost:5173"]`; `"*"` for any. Default none. */
  readonly origins?: readonly string[];
  /** Which records clients may send. Default: every valid command. */
  readonly policy?: CommandPolicyOptions;
  /**
   * pi-kit's permission extension, loaded into every pi (`-e`): the mode a new session starts in
   * (default `full`: nothing asks) and the modes users may choose. `false` leaves it out.
   */
  readonly permissions?: PermissionModesOptions | false;
  /** Limits; see {@link DEFAULT_LIMITS}. */
  readonly limits?: BridgeLimits;
  /** Whether a WebSocket to an unknown session creates it (else 404). Default `true`. */
  readonly autoCreate?: boolean;
  /** Receives structured log entries. Default: JSON lines on stderr. */
  readonly logger?: BridgeLogger;
  /**
   * Spawns pi for the session whose directory is `sessionDir`; default `spawnPi` from
   * `@pi-kit/client/process` (the current runtime's own API).
   */
  readonly spawn?: (
    options: ChildProcessOptions,
    sessionDir: string,
  ) => Promise<ChildProcessTransport>;
  /**
   * Confines each pi: `"bwrap"` runs it under bubblewrap, seeing only its workspace (`pi.cwd`)
   * and its session directory writable, the rest read-only or absent. Checked when the bridge
   * is created: a `BridgeError` (`invalid_options`) says what is missing.
   */
  readonly sandbox?: SandboxOption;
  /** Timeouts of each pi's graceful stop (stdin close, then SIGTERM, then SIGKILL). */
  readonly stopTimeouts?: StopTimeouts;
  /**
   * Where clients reach this bridge, e.g. `http://127.0.0.1:8787`: recorded in the sessions
   * directory's lock, so a second bridge started on the same directory can say where this one runs.
   */
  readonly url?: string;
  /** Cluster mode: per-session leases in Redis replace the sessions directory's lock. */
  readonly cluster?: ClusterOptions;
  /**
   * Checkpoints of each session's workspace, at its start and at the start of every run, in a
   * shadow git repository in `sessionsDir` (the changes API lists, diffs and undoes what pi
   * changed since). On by default (it needs `git` on `PATH`); `false` keeps none.
   */
  readonly checkpoints?: CheckpointSettings | false;
  /**
   * Uploads (`…/uploads`): files the controlling socket hands pi, stored in
   * `.pi-kit/uploads/{id}/{name}` of the session's workspace, within these limits (each
   * defaults to `DEFAULT_UPLOAD_LIMITS`' own). On by default; `false` takes none (404 `uploads_off`).
   */
  readonly uploads?: UploadSettings | false;
}
