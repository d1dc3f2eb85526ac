/**
 * Writes to pi's session files in pi's own format, so pi reads them back: a `session_info`
 * entry naming the session, as pi's `appendSessionInfo` writes it (a child of the last entry, which
 * is the leaf pi continues from), and the LF a torn last line lacks.
 */
import { appendFile } from "node:fs/promises";
import type { FileDigest } from "./file-digest.ts";

/** A session name as pi stores it: line breaks become spaces, then trimmed. */
export function sessionName(title: string): string {
  return title.replace(/[\r\n]+/g, " ").trim();
}

/**
 * Appends a `session_info` entry naming the session to the file at `path`, whose digest is
 * `digest` and which has `size` bytes. A last line without its LF (a crash mid-write) is ended
 * first, so the entry is not glued to it.
 */
export async function appendSessionName(
  path: string,
  digest: FileDigest,
  size: number,
  name: string,
): Promise<void> {
  const entry = {
    type: "session_info",
    // pi's ids are 8 hex digits, or a full UUID when it has to avoid a collision: the bridge
    // does not hold every id of the file, so it takes the collision-free form.
    id: crypto.randomUUID(),
    parentId: digest.lastEntryId,
    timestamp: new Date().toISOString(),
    name,
  };
  const lead = size > digest.parsedBytes ? "\n" : "";
  await appendFile(path, `${lead}${JSON.stringify(entry)}\n`);
}

/** Ends a last line that has no LF (what pi 1.x does on load, and 0.73 does not), so pi's next entry starts on a line of its own. */
export async function endLastLine(
  path: string,
  digest: FileDigest,
  size: number,
): Promise<boolean> {
  if (size <= digest.parsedBytes) return false;
  await appendFile(path, "\n");
  return true;
}
