/**
 * Which pi processes run which session of a cluster: each bridge logs `session_created` with the
 * session, pi's pid and the file it resumed; the process table says which of those pids are still
 * alive, and whether stopped. (pi sets its process title, so its command line cannot tell.)
 * {@link PiAudit} samples this over time.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { listProcesses, type ProcessEntry } from "@pi-kit/testing";

/** One pi process of a session. */
export interface SessionPi {
  readonly pid: number;
  /** The bridge that started it. */
  readonly bridgePid: number;
  /** `T` while it is stopped (SIGSTOP), else the kernel's state letter. */
  readonly state: string;
  /** The session's name. */
  readonly session: string;
  /** The file it resumed, or `undefined` for a session it started fresh. */
  readonly file: string | undefined;
}

/** A bridge process whose log names the pis it started. */
export interface LoggingBridge {
  readonly pid: number;
  /** Its JSON log lines. */
  stderr(): string;
}

/** Every live pi that one of `bridges` started, with its session. */
export function sessionPis(
  bridges: readonly LoggingBridge[],
  table: ProcessEntry[] = listProcesses(),
): SessionPi[] {
  const alive = new Map(table.map((entry) => [entry.pid, entry]));
  const found: SessionPi[] = [];
  for (const bridge of bridges) {
    for (const line of bridge.stderr().split("\n")) {
      if (!line.includes('"event":"session_created"')) continue;
      const created = JSON.parse(line) as {
        session: string;
        pid: number | null;
        resumedFrom?: string;
      };
      const entry = created.pid === null ? undefined : alive.get(created.pid);
      if (entry === undefined) continue;
      found.push({
        pid: entry.pid,
        bridgePid: bridge.pid,
        state: entry.state,
        session: created.session,
        file: created.resumedFrom,
      });
    }
  }
  return found;
}

/** The process ids of `root` and all its descendants in `table`, parents first. */
export function processTree(root: number, table: ProcessEntry[] = listProcesses()): number[] {
  const tree = [root];
  for (let i = 0; i < tree.length; i++) {
    for (const entry of table) if (entry.ppid === tree[i]) tree.push(entry.pid);
  }
  return tree;
}

/** The newest `.jsonl` session file in a session's directory, if any (pi names them by time). */
export function newestSessionFile(sessionsDir: string, session: string): string | undefined {
  const dir = join(sessionsDir, session);
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".jsonl"))
    .sort();
  const last = files.at(-1);
  return last === undefined ? undefined : join(dir, last);
}

/** One observation: at `t` (ms, monotonic), these pis ran `session`. */
export interface AuditSample {
  readonly t: number;
  readonly pis: readonly SessionPi[];
}

/** Samples `pisOf` (one session's pis) every `everyMs` until stopped. */
export class PiAudit {
  readonly samples: AuditSample[] = [];
  readonly #timer: ReturnType<typeof setInterval>;

  constructor(pisOf: () => SessionPi[], everyMs = 25) {
    const sample = (): void => {
      const pis = pisOf();
      this.samples.push({ t: performance.now(), pis });
    };
    sample();
    this.#timer = setInterval(sample, everyMs);
  }

  /** Every pid seen on the session, in order of first sight. */
  get pids(): number[] {
    return [...new Set(this.samples.flatMap((s) => s.pis.map((p) => p.pid)))];
  }

  /** The samples in which more than one pi of the session was not stopped. */
  overlaps(allowed: (sample: AuditSample) => boolean = () => false): AuditSample[] {
    return this.samples.filter(
      (s) => s.pis.filter((p) => p.state !== "T").length > 1 && !allowed(s),
    );
  }

  stop(): void {
    clearInterval(this.#timer);
  }
}
