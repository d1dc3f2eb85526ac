/**
 * The live processes of this machine as Linux's `/proc` shows them, for tests that check that
 * nothing a pi started outlives it (a tool's `sleep 300`, a whole process group).
 * @module
 */

import { readdirSync, readFileSync } from "node:fs";

/** One process from `/proc/<pid>`. */
export interface ProcessEntry {
  /** The process id. */
  readonly pid: number;
  /** The parent's process id. */
  readonly ppid: number;
  /** The process group id. */
  readonly pgid: number;
  /** The session id. */
  readonly sid: number;
  /** The state letter (`R`, `S`, `Z` for a zombie, …). */
  readonly state: string;
  /** The command line. */
  readonly argv: readonly string[];
}

/** Every process still alive (zombies excluded: they are dead, only not yet reaped). */
export function listProcesses(): ProcessEntry[] {
  const entries: ProcessEntry[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const entry = readProcess(Number(name));
    if (entry !== undefined && entry.state !== "Z") entries.push(entry);
  }
  return entries;
}

/** One process, or `undefined` when it is gone (or went while being read). */
export function readProcess(pid: number): ProcessEntry | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name is in parentheses and may hold spaces or parentheses: split after the last.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
    return {
      pid,
      state: fields[0] ?? "?",
      ppid: Number(fields[1]),
      pgid: Number(fields[2]),
      sid: Number(fields[3]),
      argv,
    };
  } catch {
    return undefined;
  }
}

/** Polls the process table until a process matches `predicate`; rejects after `timeoutMs`. */
export async function waitForProcess(
  predicate: (entry: ProcessEntry) => boolean,
  timeoutMs = 10_000,
): Promise<ProcessEntry> {
  const end = performance.now() + timeoutMs;
  for (;;) {
    const found = listProcesses().find(predicate);
    if (found !== undefined) return found;
    if (performance.now() > end) throw new Error("no such process appeared in time");
    await pause();
  }
}

/**
 * Polls the process table until no process matches `predicate` or `timeoutMs` passes; resolves
 * with the survivors (empty when every one is gone). Processes that are not one's children send
 * no event when they start or end, so polling is the only way to watch them.
 */
export async function waitForNoProcesses(
  predicate: (entry: ProcessEntry) => boolean,
  timeoutMs = 10_000,
): Promise<ProcessEntry[]> {
  const end = performance.now() + timeoutMs;
  for (;;) {
    const survivors = listProcesses().filter(predicate);
    if (survivors.length === 0 || performance.now() > end) return survivors;
    await pause();
  }
}

/** The polling interval. */
const pause = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 50));
