import { settlesWithin } from "../frames.ts";
import type { ExitStatus, StopSignal, StopTimeouts } from "./options.ts";

/** The default stop timeouts: 2 s after closing stdin, then 1 s after SIGTERM. */
export const DEFAULT_STOP_TIMEOUTS: Required<StopTimeouts> = {
  stdinCloseMs: 2000,
  sigtermMs: 1000,
};

/** The little of a child process the stop sequence needs, on any runtime. */
export interface StoppableChild {
  /** Closes pi's stdin, after the writes already queued. */
  closeStdin(): Promise<void>;
  /** Sends a signal; must not throw when the process is already gone. */
  kill(signal: StopSignal): void;
  /** Resolves when the process has exited. */
  readonly exited: Promise<ExitStatus>;
}

/** Which step of the stop sequence ended the process. */
export type StopStep = "stdin" | "sigterm" | "sigkill";

/**
 * Stops pi the graceful way: close stdin (pi flushes and exits 0), then SIGTERM, then SIGKILL.
 * SIGTERM comes second because pi skips its final stdout flush on it.
 */
export async function gracefulStop(
  child: StoppableChild,
  timeouts: StopTimeouts = {},
): Promise<ExitStatus & { readonly step: StopStep }> {
  const stdinCloseMs = timeouts.stdinCloseMs ?? DEFAULT_STOP_TIMEOUTS.stdinCloseMs;
  const sigtermMs = timeouts.sigtermMs ?? DEFAULT_STOP_TIMEOUTS.sigtermMs;
  child.closeStdin().catch(() => {
    // stdin may already be broken because pi is gone; the exit is what counts.
  });
  if (await settlesWithin(child.exited, stdinCloseMs))
    return { ...(await child.exited), step: "stdin" };
  child.kill("SIGTERM");
  if (await settlesWithin(child.exited, sigtermMs))
    return { ...(await child.exited), step: "sigterm" };
  child.kill("SIGKILL");
  return { ...(await child.exited), step: "sigkill" };
}
