/**
 * The server-side command policy. Every record a client sends passes through here before pi sees
 * it: pi validates nothing (a top-level `null` crashes it, `{"type":"bash"}` runs the shell
 * command `undefined`), so anything invalid is refused, not forwarded.
 */
import { isAbsolute, join, resolve, sep } from "node:path";
import {
  COMMAND_TYPES,
  type ProtocolError,
  validateCommand,
  validateUiResponse,
} from "@pi-kit/protocol";
import { BridgeError, BridgeErrorCode } from "../errors/bridge-error.ts";
import { logLabel } from "../logging/logger.ts";

/** The record type of a dialog answer, which is not a command but passes the policy too. */
const UI_RESPONSE = "extension_ui_response";

/** Prefix of every refusal's `error`, so a client can tell the bridge's refusals from pi's. */
export const DENIED_PREFIX = "Denied by bridge policy: ";

/** Which records clients may send. */
export interface CommandPolicyOptions {
  /** When set, only these types pass (command types, and `extension_ui_response`). */
  readonly allow?: readonly string[];
  /** These types never pass, for example `["bash"]` (shell commands typed by the client). */
  readonly deny?: readonly string[];
  /**
   * Keep the paths of `switch_session`, `export_html` and `new_session.parentSession` inside the
   * session directory (relative paths resolve against it). Defaults to `true`.
   */
  readonly confinePaths?: boolean;
}

/** What to do with one inbound message. */
export type PolicyDecision =
  | {
      readonly ok: true;
      /** The record to write to pi, without its LF. */
      readonly line: string;
      /** The record type. */
      readonly type: string;
      /** The record's `id`, when it has one. */
      readonly id?: string | number;
      /** For a dialog answer: the dialog it answers. */
      readonly uiResponseId?: string;
    }
  | {
      readonly ok: false;
      /** The pi-style failure response to send back, as one record, saying in full what is wrong. */
      readonly response: string;
      /** The record type for the log: a known one, or a short escaped prefix (`"parse"`: none). */
      readonly type: string;
      /** Why, for the log: names fields, never quotes their values. */
      readonly reason: string;
    };

/** Checks one inbound text message against the policy for a session directory. */
export type CommandPolicy = (text: string, sessionDir: string) => PolicyDecision;

/** Builds the policy; throws a `BridgeError` naming any unknown type in `allow` or `deny`. */
export function createCommandPolicy(options: CommandPolicyOptions = {}): CommandPolicy {
  const known = new Set<string>([...COMMAND_TYPES, UI_RESPONSE]);
  for (const type of [...(options.allow ?? []), ...(options.deny ?? [])]) {
    if (!known.has(type)) {
      throw new BridgeError(
        BridgeErrorCode.InvalidOptions,
        `Unknown command type in the policy: ${JSON.stringify(type)}; known: ${[...known].join(", ")}`,
      );
    }
  }
  const allow = options.allow === undefined ? undefined : new Set(options.allow);
  const deny = new Set(options.deny ?? []);
  const confine = options.confinePaths !== false;

  return (text, sessionDir) => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return refuse(undefined, "parse", "the message is not valid JSON");
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      return refuse(undefined, "parse", "a record must be a JSON object");
    }
    const record = value as Record<string, unknown>;
    const id =
      typeof record.id === "string" || typeof record.id === "number" ? record.id : undefined;
    const type = typeof record.type === "string" ? record.type : "parse";
    const problem = type === UI_RESPONSE ? validateUiResponse(record) : validateCommand(record);
    if (problem !== undefined) return refuse(id, type, problem.message, invalidReason(problem));
    if (deny.has(type) || (allow !== undefined && !allow.has(type))) {
      return refuse(id, type, `\`${type}\` is not allowed on this bridge`);
    }
    let rewritten: Record<string, unknown> | undefined;
    if (confine) {
      const paths = confinePaths(record, type, sessionDir);
      if (typeof paths === "string") return refuse(id, type, paths);
      rewritten = paths;
    }
    // A JSON text may carry LF as whitespace: re-encode it so one message stays one pi line.
    const line =
      rewritten !== undefined || /[\r\n]/.test(text) ? JSON.stringify(rewritten ?? record) : text;
    if (type === UI_RESPONSE) {
      return { ok: true, line, type, id: record.id as string, uiResponseId: record.id as string };
    }
    return id === undefined ? { ok: true, line, type } : { ok: true, line, type, id };
  };
}

/** The fields holding a filesystem path, per command type. */
const PATH_FIELDS: Readonly<Record<string, string>> = {
  switch_session: "sessionPath",
  export_html: "outputPath",
  new_session: "parentSession",
};

/**
 * Resolves the command's path field inside `sessionDir`: the record with absolute paths, or an
 * error message. An `export_html` without `outputPath` gets one there, because pi's default is
 * relative to its working directory (the project). The check is lexical: `..` cannot escape,
 * and a client has no way to create symlinks (short of `bash`, which a careful policy denies).
 */
function confinePaths(
  record: Record<string, unknown>,
  type: string,
  sessionDir: string,
): Record<string, unknown> | string | undefined {
  const field = PATH_FIELDS[type];
  if (field === undefined) return undefined;
  const root = resolve(sessionDir);
  const value = record[field];
  if (value === undefined) {
    if (type !== "export_html") return undefined;
    const stamp = new Date().toISOString().replace(/[:.]/g, "-");
    return { ...record, [field]: join(root, `export-${stamp}.html`) };
  }
  const path = value as string;
  const full = isAbsolute(path) ? resolve(path) : resolve(root, path);
  if (full !== root && !full.startsWith(root.endsWith(sep) ? root : root + sep)) {
    return `\`${type}.${field}\` must stay inside the session directory`;
  }
  return full === path ? undefined : { ...record, [field]: full };
}

/**
 * A refusal. `message` goes to the client, who sent the values it may quote; `reason` goes to the
 * log and must not quote any (it defaults to `message` where that names fields only). The type
 * is cut to a short label in both: an unknown one is as long as the client made it.
 */
function refuse(
  id: string | number | undefined,
  type: string,
  message: string,
  reason: string = message,
): PolicyDecision {
  const label = logLabel(type);
  const response = {
    type: "response",
    ...(id === undefined ? {} : { id }),
    command: label,
    success: false,
    error: DENIED_PREFIX + message,
  };
  return { ok: false, response: JSON.stringify(response), type: label, reason };
}

/** What is invalid, by field name only: the validator's message quotes the value. */
function invalidReason(problem: ProtocolError): string {
  const { field, command } = (problem.detail ?? {}) as { field?: unknown; command?: unknown };
  if (field === "type") return "unknown record type";
  if (typeof field !== "string") return "invalid record";
  return typeof command === "string" ? `invalid \`${command}.${field}\`` : `invalid \`${field}\``;
}
