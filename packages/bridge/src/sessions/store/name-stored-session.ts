/**
 * Names a session whose pi is not running: a `session_info` entry in the file pi resumes, or, for
 * a session pi never saved, a new file holding only the name. Either way pi reads the name back
 * when it next opens the session. The caller makes sure no pi runs on the session meanwhile.
 */
import { join } from "node:path";
import { BridgeError, BridgeErrorCode } from "../../errors.ts";
import type { DirectoryRecord } from "./session-directory.ts";
import { appendSessionName, createNamedSessionFile } from "./session-name-writer.ts";
import type { SessionStore } from "./session-store.ts";
import { resumableFile } from "./stored-session.ts";

/**
 * Names stored session `name` `title` (already in pi's form, see `sessionName`); `cwd` is the
 * working directory a new file records. Resolves the session's new record.
 */
export function nameStoredSession(
  store: SessionStore,
  name: string,
  title: string,
  cwd: string,
): Promise<DirectoryRecord> {
  return store.withDirectory(name, async () => {
    const record = await store.refreshHeld(name);
    if (record === undefined) {
      throw new BridgeError(BridgeErrorCode.UnknownSession, `No session ${name}`);
    }
    if (record.error !== undefined) {
      throw new BridgeError(
        BridgeErrorCode.SessionUnreadable,
        `Cannot read the directory of session ${name}: ${record.error}`,
      );
    }
    const file = resumableFile(record);
    if (file?.digest != null) {
      if (file.digest.name === title) return record;
      await appendSessionName(join(store.dir(name), file.file), file.digest, file.size, title);
    } else {
      await createNamedSessionFile(store.dir(name), cwd, title);
    }
    return (await store.refreshHeld(name)) ?? record;
  });
}
