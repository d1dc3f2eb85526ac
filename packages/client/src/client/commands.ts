/**
 * What the client knows about pi's commands beyond their types: which may run for minutes, which
 * can open dialogs, which change the session, and how to read their answers.
 */
import type { PromptDisposition } from "@pi-kit/protocol";
import { PiClientError } from "./errors.ts";

/**
 * Commands that may legitimately run for minutes, so they get no default timeout: prompt waits
 * for extension-command dialogs, abort for the unwind, compact and bash for their work, and the
 * session switches for `session_before_*` hooks that can open dialogs.
 */
export const LONG_RUNNING: ReadonlySet<string> = new Set([
  "prompt",
  "compact",
  "bash",
  "abort",
  "new_session",
  "switch_session",
  "fork",
  "clone",
]);

/** Commands on which a pi without `agent_settled` abandons a run mid-stream without any end event. */
export const ABANDONS_RUN: ReadonlySet<string> = new Set([
  "new_session",
  "switch_session",
  "compact",
  "fork",
  "clone",
]);

/**
 * Commands during which pi can open a dialog (extension commands and input hooks, session hooks,
 * compaction hooks, user_bash hooks): a dialog opened while one is pending goes stale once pi
 * answered it.
 */
export const OPENS_DIALOGS: ReadonlySet<string> = new Set([
  "prompt",
  "steer",
  "follow_up",
  "new_session",
  "switch_session",
  "fork",
  "clone",
  "compact",
  "bash",
]);

/** Commands that put pi on another session; `session_changed` follows each that was not vetoed. */
export const CHANGES_SESSION: ReadonlySet<string> = new Set([
  "new_session",
  "switch_session",
  "fork",
  "clone",
]);

/** A command's `type` for messages, whatever was passed. */
export function typeOf(command: unknown): string {
  const type = (command as { type?: unknown } | null)?.type;
  return typeof type === "string" && type !== "" ? type : "command";
}

/** Throws the call's `cancelled` error when its signal has already fired: nothing is sent then. */
export function throwIfCancelled(call: string, signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw PiClientError.cancelled(call, signal.reason);
}

/** `data.disposition` of a prompt, steer or follow-up answer, when pi gave one. */
export function dispositionOf(data: unknown): PromptDisposition | undefined {
  if (typeof data !== "object" || data === null) return undefined;
  const disposition = (data as { disposition?: unknown }).disposition;
  return disposition === "started" || disposition === "queued" || disposition === "handled"
    ? disposition
    : undefined;
}

/** A session command a `session_before_*` extension hook vetoed answers `{cancelled: true}`. */
export function vetoedByHook(data: unknown): boolean {
  return (
    typeof data === "object" &&
    data !== null &&
    (data as { cancelled?: unknown }).cancelled === true
  );
}

/** Drops `undefined` fields so optional command fields are absent, not `undefined`. */
export function opt<T extends Record<string, unknown>>(
  fields: T,
): { [K in keyof T]?: Exclude<T[K], undefined> } {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) out[key] = value;
  return out as { [K in keyof T]?: Exclude<T[K], undefined> };
}
