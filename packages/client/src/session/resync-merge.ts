/**
 * Pure helpers of `SessionModel.resync()`: merging what pi reports with what the event stream
 * delivered, so a resync after lost events neither loses nor duplicates a message.
 */
import type { AgentMessage, SessionEntry, ToolResultMessage } from "@pi-kit/protocol";
import type { ToolExecution } from "./session-snapshot.ts";

// Entries that never change the message list: safe to skip in an incremental resync. Anything else
// (compaction, branch summaries, context edits, custom messages, unknown types) rewrites what
// `get_messages` returns in ways entries alone cannot reproduce, so it forces a full reload.
const INERT_ENTRIES = new Set<string>([
  "model_change",
  "thinking_level_change",
  "session_info",
  "label",
  "usage",
  "custom",
]);

/**
 * The messages appended after entry `cursor`, when `entries` (a `get_entries {since: cursor}`
 * answer) continue the current branch in a straight line and hold only messages and inert entries;
 * `undefined` when only a full reload is safe (a branch switch, a compaction, …).
 */
export function linearDelta(
  entries: readonly SessionEntry[],
  cursor: string,
  leafId: string | null,
): AgentMessage[] | undefined {
  const messages: AgentMessage[] = [];
  let parent: string = cursor;
  for (const entry of entries) {
    if (entry.parentId !== parent) return undefined;
    parent = entry.id;
    if (entry.type === "message") messages.push(entry.message);
    else if (!INERT_ENTRIES.has(entry.type)) return undefined;
  }
  return leafId === parent ? messages : undefined;
}

/** How merges tell two copies of one message, and which copy they keep. */
export interface MessageIdentity {
  same(a: AgentMessage | undefined, b: AgentMessage | undefined): boolean;
  pick(a: AgentMessage, b: AgentMessage): AgentMessage;
}

/** Plain structural identity: equal values are the same message. */
export const BY_VALUE: MessageIdentity = { same: sameValue, pick: (a) => a };

/**
 * `head` followed by `tail`, minus the longest run at the start of `tail` that repeats the end of
 * `head`: a message the stream delivered and pi also reported is kept once (the copy `pick` chooses).
 */
export function overlapMerge(
  head: readonly AgentMessage[],
  tail: readonly AgentMessage[],
  identity: MessageIdentity = BY_VALUE,
): AgentMessage[] {
  for (let k = Math.min(head.length, tail.length); k > 0; k--) {
    let matches = true;
    for (let i = 0; i < k && matches; i++) {
      matches = identity.same(head[head.length - k + i], tail[i]);
    }
    if (!matches) continue;
    const overlap = tail
      .slice(0, k)
      .map((copy, i) => identity.pick(head[head.length - k + i] as AgentMessage, copy));
    return [...head.slice(0, head.length - k), ...overlap, ...tail.slice(k)];
  }
  return [...head, ...tail];
}

/** Structural equality of JSON values (key order ignored): how a message pi re-sends is recognised. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => sameValue(item, b[i]));
  }
  if (Array.isArray(b)) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left).filter((key) => left[key] !== undefined);
  if (keys.length !== Object.keys(right).filter((key) => right[key] !== undefined).length) {
    return false;
  }
  return keys.every((key) => sameValue(left[key], right[key]));
}

/**
 * Finishes tool executions whose `tool_execution_end` was lost with a dropped connection but whose
 * result is in the transcript, so a UI does not show them running forever.
 */
export function settleTools(
  executions: ReadonlyMap<string, ToolExecution>,
  messages: readonly AgentMessage[],
): ReadonlyMap<string, ToolExecution> {
  const running = [...executions.values()].filter((execution) => execution.status === "running");
  if (running.length === 0) return executions;
  const results = new Map<string, ToolResultMessage>();
  for (const message of messages) {
    if (message.role === "toolResult") results.set(message.toolCallId, message);
  }
  let next: Map<string, ToolExecution> | undefined;
  for (const execution of running) {
    const result = results.get(execution.toolCallId);
    if (result === undefined) continue;
    next ??= new Map(executions);
    next.set(execution.toolCallId, {
      ...execution,
      status: result.isError ? "error" : "done",
      result: { content: result.content, details: result.details },
    });
  }
  return next ?? executions;
}
