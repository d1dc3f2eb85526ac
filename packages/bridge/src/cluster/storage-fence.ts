/**
 * The storage fence a bridge puts up when it takes over a lease that expired instead of being
 * released: the old owner may be frozen, not dead, and its pi would append to the session file
 * when it wakes. pi opens the file by path for every entry (pinned per pi line by
 * test/cluster/pi-append-by-path.test.ts), so moving the file to a new name before the new pi
 * starts on it sends any late write to a stray file at the old path (headerless: the bridge
 * ignores it), never into the resumed one. Node-only: it moves files.
 */
import { link, open, readdir, stat, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { peekRecord } from "@pi-kit/protocol";

/** `<stem>.fence-<n>.jsonl`: a session file moved by the owner holding fence `n`. */
const FENCED = /^(.*)\.fence-(\d+)\.jsonl$/;

/** The stem of a session file, without `.jsonl` and without an earlier fence's suffix. */
function stemOf(file: string): string {
  const name = basename(file);
  return FENCED.exec(name)?.[1] ?? name.replace(/\.jsonl$/, "");
}

/** The name `file` gets under fence `fence`: same directory and stem, `.fence-<fence>.jsonl`. */
export function fencedFileName(file: string, fence: number): string {
  return join(dirname(file), `${stemOf(file)}.fence-${fence}.jsonl`);
}

/**
 * Moves the session `file` to its name under `fence` and answers that name; start pi on it only
 * after this resolves. The move is a hard link then an unlink (both atomic, on NFS too), never a
 * rename over an existing name: repeated after a crash, it keeps the file already fenced instead
 * of replacing it with a stray one a zombie wrote meanwhile. Rejects if neither exists.
 */
export async function fenceSessionFile(file: string, fence: number): Promise<string> {
  const target = fencedFileName(file, fence);
  try {
    await link(file, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return target;
    throw error;
  }
  await unlink(file);
  return target;
}

/**
 * The latest of `file`'s fenced names that exists (the highest fence), or `undefined`: where a
 * session resumes when the file its lease names is missing (its owner died between recording
 * the new name and moving the file, or moved it and died before recording).
 */
export async function latestFencedFile(file: string): Promise<string | undefined> {
  const stem = stemOf(file);
  let best: { fence: number; name: string } | undefined;
  for (const name of await readdir(dirname(file))) {
    const match = FENCED.exec(name);
    if (match?.[1] !== stem) continue;
    const fence = Number(match[2]);
    if (best === undefined || fence > best.fence) best = { fence, name };
  }
  return best === undefined ? undefined : join(dirname(file), best.name);
}

/**
 * The session file of `dir` written last that is pi's (it opens with pi's `session` header), or
 * `undefined`: what a takeover fences when the expired lease names no file (its owner died before
 * it learned pi's file). A stray headerless file a zombie wrote is never chosen.
 */
export async function newestSessionFile(dir: string): Promise<string | undefined> {
  let best: { file: string; mtimeMs: number } | undefined;
  for (const name of await readdir(dir)) {
    if (!name.endsWith(".jsonl")) continue;
    const file = join(dir, name);
    const { mtimeMs } = await stat(file);
    if (best !== undefined && mtimeMs < best.mtimeMs) continue;
    if (await opensWithHeader(file)) best = { file, mtimeMs };
  }
  return best?.file;
}

/** Whether `file`'s first record is pi's session header, in any key order. */
async function opensWithHeader(file: string): Promise<boolean> {
  const handle = await open(file, "r");
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(4096), 0, 4096, 0);
    const head = buffer.subarray(0, bytesRead).toString("utf8");
    const end = head.indexOf("\n");
    return peekRecord(end < 0 ? head : head.slice(0, end))?.type === "session";
  } finally {
    await handle.close();
  }
}
