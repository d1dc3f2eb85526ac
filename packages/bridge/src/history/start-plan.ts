/**
 * How a session's pi starts: on the session file written last (pi's `--session <file>`), so pi
 * restores the conversation, the entry tree, the name, model and thinking level it saved; or,
 * when that file's working directory no longer exists (pi refuses to open it then), on a fork of
 * it into pi's own working directory (`--fork <file>`: a new file with the whole history, the old
 * one kept). A session without a readable pi file starts fresh, with the name it was given, if any.
 */
import { stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { type BridgeLogger, safeLog } from "../logging/logger.ts";
import type { StartPlan } from "../sessions/session-settings.ts";
import { endLastLine } from "./session-name-writer.ts";
import type { SessionStore } from "./session-store.ts";
import { resumableFile } from "./stored-session.ts";

/** The notice a client sees when it opens a session whose last run was cut off. */
export const INTERRUPTED_NOTICE =
  "The last run was interrupted: pi stopped before it finished. The conversation is as pi saved it.";

/**
 * Plans the start of session `name`'s pi. A last line without its LF (a crash mid-write) is ended
 * first, so pi's next entry is not glued to it. `preferred` (absolute) is the file to resume when
 * the session's owner records one (a cluster lease names it); else the file written last. Throws a
 * `BridgeError` (`session_unreadable`) when the session directory cannot be read.
 */
export function planStart(
  store: SessionStore,
  name: string,
  logger: BridgeLogger,
  preferred?: string,
): Promise<StartPlan> {
  return store.withDirectory(name, async () => {
    const record = await store.readableHeld(name);
    const named =
      preferred === undefined || dirname(preferred) !== store.dir(name)
        ? undefined
        : record?.files.find((f) => f.file === basename(preferred) && f.digest?.kind === "pi");
    const file = named ?? (record === undefined ? undefined : resumableFile(record));
    if (file?.digest == null) {
      return record?.pendingName === undefined
        ? { args: [] }
        : { args: [], name: record.pendingName };
    }
    const path = join(store.dir(name), file.file);
    if (await endLastLine(path, file.digest, file.size)) {
      safeLog(logger, { event: "session_repaired", session: name, file: file.file });
    }
    const cwd = file.digest.header?.cwd;
    const args =
      cwd === undefined || (await isDirectory(cwd)) ? ["--session", path] : ["--fork", path];
    return {
      args,
      resumedFrom: path,
      restoresModel: file.digest.messageCount > 0,
      ...(file.digest.openRun ? { notice: INTERRUPTED_NOTICE } : {}),
    };
  });
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}
