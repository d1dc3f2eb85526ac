/**
 * What a session's pi starts from: the command the server fixed, the plan that picks its session
 * file, and the bridge's settings every session shares.
 */
import type {
  ChildProcessOptions,
  ChildProcessTransport,
  StopTimeouts,
} from "@pi-kit/client/process";
import type { CheckpointStore } from "../checkpoints/checkpoint-store.ts";
import type { BridgeLogger } from "../logging/logger.ts";
import type { SessionKey } from "../principals/owner.ts";
import type { ControlMemory } from "./control-memory.ts";
import { withoutModelChoice } from "./pi-args.ts";

/** Frames the transport may hold unread before the bridge stops reading pi's stdout. */
const TRANSPORT_HIGH_WATER_MARK = 16;

/** The pi command every session runs, fixed by the server: clients never choose it. */
export interface PiProcessSpec {
  /** The executable, for example `pi`, or `node` with pi's `cli.js` first in `args`. */
  readonly command: string;
  /** Arguments, `--mode rpc` included; the session directory arguments are appended. */
  readonly args?: readonly string[];
  /** pi's working directory (the project); defaults to the bridge's. */
  readonly cwd?: string;
  /** Extra environment; `undefined` removes a variable. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** How a session's pi starts: the arguments that pick its session file, and a notice for its first client. */
export interface StartPlan {
  /** Arguments after the session directory's, e.g. `["--session", file]`. */
  readonly args: readonly string[];
  /** The file pi continues, when it resumes one. */
  readonly resumedFrom?: string;
  /** The file has messages: pi restores its model and thinking level, so the command's choice is left out. */
  readonly restoresModel?: boolean;
  /** Shown to the first client that attaches (as a pi `notify`), e.g. that a run was cut off. */
  readonly notice?: string;
  /** A session name for pi to take (`set_session_name`) as it starts. */
  readonly name?: string;
}

/** Everything a session needs from the bridge, resolved. */
export interface SessionSettings {
  /** The pi command. */
  readonly pi: PiProcessSpec;
  /** pi arguments that put its session files in a session directory. */
  readonly sessionArgs: (sessionDir: string) => readonly string[];
  /** Spawns pi for the session whose directory is the second argument. */
  readonly spawn: (
    options: ChildProcessOptions,
    sessionDir: string,
  ) => Promise<ChildProcessTransport>;
  /** Socket bytes queued before the session stops reading pi. */
  readonly highWaterMark: number;
  /** Open dialogs kept for re-sending. */
  readonly maxPendingDialogs: number;
  /** Bytes of input queued for pi before a client is shed. */
  readonly maxStdinBytes: number;
  /** Timeouts of pi's graceful stop. */
  readonly stopTimeouts: StopTimeouts | undefined;
  /** Receives the session's log entries. */
  readonly logger: BridgeLogger;
  /** Called with the absolute path of the file pi moved to (a new session, switch, fork, clone). */
  readonly onFileMoved?: ((key: SessionKey, file: string) => void) | undefined;
  /** Told each batch's time from pi's stdout to the sockets, in seconds (the relay metric). */
  readonly onRelayed?: ((seconds: number) => void) | undefined;
  /** Where the sessions' checkpoints are kept; `undefined`: none are (`--no-checkpoints`). */
  readonly checkpoints?: CheckpointStore | undefined;
  /** Where session `key`'s controller is remembered across restarts; `undefined`: nowhere. */
  readonly controlMemory?: ((key: SessionKey) => ControlMemory) | undefined;
  /** How long a session that starts again waits for the viewer that controlled it, in ms. */
  readonly controlReclaimMs?: number | undefined;
}

/** How to spawn the pi of the session in `dir`, started as `plan` says. */
export function spawnOptions(
  settings: SessionSettings,
  dir: string,
  plan: StartPlan,
): ChildProcessOptions {
  const { pi } = settings;
  const piArgs = pi.args ?? [];
  return {
    command: pi.command,
    args: [
      ...(plan.restoresModel ? withoutModelChoice(piArgs) : piArgs),
      ...settings.sessionArgs(dir),
      ...plan.args,
    ],
    ...(pi.cwd === undefined ? {} : { cwd: pi.cwd }),
    ...(pi.env === undefined ? {} : { env: pi.env }),
    highWaterMark: TRANSPORT_HIGH_WATER_MARK,
    ...(settings.stopTimeouts === undefined ? {} : { stopTimeouts: settings.stopTimeouts }),
  };
}
