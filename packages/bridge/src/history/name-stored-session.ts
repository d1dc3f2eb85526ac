/**
 * Names a session whose pi is not running: a `session_info` entry in the file pi resumes, so pi
 * reads the name back when it next opens the session. A session pi never saved has no such file
 * (pi writes one with the first message, and 0.73 with the first answer): its name waits in the
 * session directory until the next pi takes it (see `PENDING_NAME_FILE`). The caller makes sure
 * no pi runs on the session meanwhile.
 */
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { BridgeError, BridgeErrorCode } from "../errors/bridge-error.ts";
import { type DirectoryRecord, PENDING_NAME_FILE } from "./session-directory.ts";
import { appendSessionName } from "./session-name-writer.ts";
import type { SessionStore } from "./session-store.ts";
import { resumableFile } from "./stored-session.ts";

/**
 * Names stored session `name` `title` (already in pi's form, see `sessionName`). Once pi has
 * saved the name in a session file, a waiting name is removed. Resolves the session's new record.
 */
export function nameStoredSession(
  store: SessionStore,
  name: string,
  title: string,
): Promise<DirectoryRecord> {
  return store.withDirectory(name, async () => {
    const record = await store.readableHeld(name);
    if (record === undefined) {
      throw new BridgeError(BridgeErrorCode.UnknownSession, `No session named ${name}`);
    }
    const dir = store.dir(name);
    const file = resumableFile(record);
    if (file?.digest != null) {
      if (file.digest.name !== title) {
        await appendSessionName(join(dir, file.file), file.digest, file.size, title);
      }
      if (record.pendingName !== undefined) await rm(join(dir, PENDING_NAME_FILE), { force: true });
    } else if (record.pendingName !== title) {
      await writeFile(join(dir, PENDING_NAME_FILE), `${title}\n`, { mode: 0o600 });
    }
    return (await store.refreshHeld(name)) ?? record;
  });
}
