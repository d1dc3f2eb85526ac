/**
 * Which session file a running pi writes. pi moves to another file on `new_session`,
 * `switch_session`, `fork` and `clone`; the bridge then marks that file as the one written last,
 * since the newest file is what a later resume continues, and the history shows it at once.
 */
import { utimes } from "node:fs/promises";
import { basename } from "node:path";

/** Commands whose successful responses mean pi now writes another session file. */
const SWITCHES = new Set(["new_session", "switch_session", "fork", "clone"]);
/** A cheap first look: a response that switches files names one of them as its command. */
const SWITCH_COMMAND = /"command":"(?:new_session|switch_session|fork|clone)"/;

/** How a response moved pi to another file: `"forked"` by a fork or clone; `undefined`: it did not. */
export function sessionSwitch(response: string): "moved" | "forked" | undefined {
  // Only a candidate is parsed: most responses are small, but `get_messages` can be megabytes.
  if (!SWITCH_COMMAND.test(response)) return undefined;
  let record: { command?: unknown; success?: unknown };
  try {
    record = JSON.parse(response) as typeof record;
  } catch {
    return undefined;
  }
  if (record.success !== true || typeof record.command !== "string") return undefined;
  if (!SWITCHES.has(record.command)) return undefined;
  return record.command === "fork" || record.command === "clone" ? "forked" : "moved";
}

/** The file a running pi moved to last (maybe not written yet), and whether by a fork. */
export interface FollowedFile {
  readonly name: string;
  readonly forked: boolean;
}

/** The session file of one running pi, followed across its moves. */
export class SessionFile {
  /** Marking the file pi moved to as the latest; a stop waits for it. */
  #following: Promise<void> = Promise.resolve();
  #file: FollowedFile | undefined;
  readonly #onMoved: ((file: string) => void) | undefined;

  /** `onMoved` learns each file pi moved to (its absolute path), once pi named it. */
  constructor(onMoved?: (file: string) => void) {
    this.#onMoved = onMoved;
  }

  /** The file pi moved to last, if it moved since it started. */
  get current(): FollowedFile | undefined {
    return this.#file;
  }

  /** Resolves once the moves seen so far are marked (a resume must continue the file moved to). */
  settled(): Promise<void> {
    return this.#following;
  }

  /**
   * pi moved to another file: asks it which (`getState` sends `get_state`), then marks that file
   * as the one written last. Best effort: pi may not have written the file yet (a new session is
   * saved with its first message), and then it is not.
   */
  moved(forked: boolean, getState: () => Promise<Record<string, unknown>>): void {
    this.#following = this.#following.then(async () => {
      try {
        const state = await getState();
        const file = (state.data as { sessionFile?: unknown } | undefined)?.sessionFile;
        if (typeof file !== "string") return;
        this.#file = { name: basename(file), forked };
        this.#onMoved?.(file);
        const now = new Date();
        await utimes(file, now, now);
      } catch {
        // pi exited, did not answer, or has not written the file: the newest file stays the latest.
      }
    });
  }
}
