/**
 * What a session file says, for the chaos tests: its entries, whether they form one unbroken
 * parent chain (two pis appending to one file would fork or tangle it), and what a fresh pi
 * started on a copy of it answers to `get_messages` (the ground truth a client's transcript must
 * equal after a failover).
 */
import { spawn } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { SessionHostOptions } from "@pi-kit/testing";
import { withoutModelChoice } from "../../src/sessions/pi-args.ts";

/** One entry line of a session file (the header has no id). */
export interface FileEntry {
  readonly type: string;
  readonly id?: string;
  readonly parentId?: string | null;
  readonly message?: { readonly role?: string; readonly content?: unknown };
}

/** The parsed lines of `file` (a torn last line is left out). */
export function fileEntries(file: string): FileEntry[] {
  const entries: FileEntry[] = [];
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line === "") continue;
    try {
      entries.push(JSON.parse(line) as FileEntry);
    } catch {
      // A line cut off by a kill mid-write: pi's reader skips it too.
    }
  }
  return entries;
}

/**
 * Why `file` is not one pi's work, or `undefined` when it is: a session header first, then
 * entries each of whose parent is the entry before it (one writer appends one chain).
 */
export function chainProblem(file: string): string | undefined {
  const [header, ...entries] = fileEntries(file);
  if (header?.type !== "session") return `${file} does not start with a session header`;
  let parent: string | null = null;
  for (const entry of entries) {
    if (entry.id === undefined) return `an entry without an id: ${JSON.stringify(entry)}`;
    if ((entry.parentId ?? null) !== parent) {
      return `entry ${entry.id} has parent ${entry.parentId}, expected ${parent}`;
    }
    parent = entry.id;
  }
  return undefined;
}

/** The ids of `file`'s entries, in file order. */
export const entryIds = (file: string): string[] =>
  fileEntries(file).flatMap((e) => (e.id === undefined ? [] : [e.id]));

/** What a fresh pi on a copy of `file` answers to `get_messages`. */
export async function freshPiMessages(host: SessionHostOptions, file: string): Promise<unknown[]> {
  const dir = mkdtempSync(join(host.sessionsDir, "..", "fresh-"));
  const copy = join(dir, "copy.jsonl");
  copyFileSync(file, copy);
  try {
    const child = spawn(
      host.pi.command,
      [...withoutModelChoice(host.pi.args), "--session-dir", dir, "--session", copy],
      { cwd: host.pi.cwd, env: host.pi.env, stdio: ["pipe", "pipe", "pipe"] },
    );
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.stdin.write('{"type":"get_messages","id":"fresh"}\n');
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    const messages = await new Promise<unknown[]>((resolve, reject) => {
      let buffered = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        buffered += chunk;
        for (let lf = buffered.indexOf("\n"); lf !== -1; lf = buffered.indexOf("\n")) {
          const record = JSON.parse(buffered.slice(0, lf)) as {
            id?: string;
            data?: { messages: unknown[] };
          };
          buffered = buffered.slice(lf + 1);
          if (record.id === "fresh") resolve(record.data?.messages ?? []);
        }
      });
      void exited.then(() => reject(new Error(`the fresh pi exited: ${stderr}`)));
    });
    child.stdin.end();
    await exited;
    return messages;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
