import type { StopSignal } from "./options.ts";

/** How often {@link sweepGroup} looks whether the group is empty: no event reports it. */
const POLL_MS = 20;

/**
 * pi's process group. Each adapter starts pi as the leader of a group (and session) of its own,
 * so a terminal's Ctrl-C, which signals the host's whole foreground group, never reaches pi:
 * the host stops pi gracefully instead, and pi ends the tools it started.
 */
export interface ProcessGroup {
  /** Sends `signal` to every process of the group; `0` only checks. Throws once none is left. */
  signal(signal: StopSignal | 0): void;
}

/** The part of a runtime's child process a {@link ProcessGroup} needs. */
export interface GroupLeader {
  readonly pid?: number | undefined;
  kill(signal: StopSignal): unknown;
}

/**
 * The group `child` leads, signalled with `killPid` (a negative pid signals a whole group); with
 * no `killPid`, where there are no process groups (Windows), signals reach pi alone and the
 * check `0` finds nothing to sweep.
 */
export function leaderGroup(
  child: GroupLeader,
  killPid: ((pid: number, signal: StopSignal | 0) => void) | undefined,
): ProcessGroup {
  return {
    signal: (signal) => {
      if (killPid !== undefined) killPid(-(child.pid as number), signal);
      else if (signal === 0) throw new Error("No process groups on this platform");
      else child.kill(signal);
    },
  };
}

/** Whether any process of the group is still alive. */
export function groupAlive(group: ProcessGroup): boolean {
  try {
    group.signal(0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Ends what is left of pi's group after pi itself has exited (processes pi started without a
 * group of their own would otherwise outlive it): SIGTERM, then SIGKILL after `sigtermMs`.
 */
export async function sweepGroup(group: ProcessGroup, sigtermMs: number): Promise<void> {
  if (!groupAlive(group)) return;
  send(group, "SIGTERM");
  const end = performance.now() + sigtermMs;
  while (groupAlive(group)) {
    if (performance.now() >= end) {
      send(group, "SIGKILL");
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Signals the group, ignoring that it may just have emptied. */
function send(group: ProcessGroup, signal: StopSignal): void {
  try {
    group.signal(signal);
  } catch {
    // Nothing left to signal.
  }
}
