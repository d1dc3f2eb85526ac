/**
 * Client-side validation of outbound records. pi validates nothing: `{"type":"bash"}` runs the
 * shell command `undefined`, and a bogus steering mode is written into the user's settings.
 */
import {
  COMMAND_TYPES,
  isCommandType,
  QUEUE_MODES,
  STREAMING_BEHAVIORS,
  THINKING_LEVELS,
} from "./catalog.ts";
import { ProtocolError, ProtocolErrorCode } from "./errors/protocol-error.ts";
import type { CommandOf, CommandType } from "./types/commands.ts";

/** A check on one field value, with the words that finish "must be …". */
interface Rule {
  readonly test: (value: unknown) => boolean;
  readonly expected: string;
}

/** A field of a command: its rule and whether it must be present. */
interface FieldSpec {
  readonly rule: Rule;
  readonly required: boolean;
}

const string: Rule = { test: (v) => typeof v === "string", expected: "a string" };
const nonEmptyString: Rule = {
  test: (v) => typeof v === "string" && v.length > 0,
  expected: "a non-empty string",
};
const nonBlankString: Rule = {
  test: (v) => typeof v === "string" && v.trim().length > 0,
  expected: "a non-blank string",
};
const boolean: Rule = { test: (v) => typeof v === "boolean", expected: "a boolean" };
const images: Rule = {
  test: (v) => Array.isArray(v) && v.every(isImage),
  expected: 'an array of {type: "image", data: string, mimeType: string}',
};

function oneOf(values: readonly string[]): Rule {
  return {
    test: (v) => typeof v === "string" && values.includes(v),
    expected: `one of ${values.map((v) => JSON.stringify(v)).join(", ")}`,
  };
}

function isImage(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  const image = value as Record<string, unknown>;
  return (
    image.type === "image" && typeof image.data === "string" && typeof image.mimeType === "string"
  );
}

const required = (rule: Rule): FieldSpec => ({ rule, required: true });
const optional = (rule: Rule): FieldSpec => ({ rule, required: false });

/** The payload fields of command `K` (everything except `type` and `id`). */
type PayloadField<K extends CommandType> = Exclude<keyof CommandOf<K>, "type" | "id">;

/**
 * Every command's fields. The mapped type makes the compiler insist that each command lists
 * exactly the fields its interface declares, so this table cannot drift from the types.
 */
const COMMAND_FIELDS: {
  readonly [K in CommandType]: { readonly [F in PayloadField<K>]-?: FieldSpec };
} = {
  prompt: {
    message: required(string),
    images: optional(images),
    streamingBehavior: optional(oneOf(STREAMING_BEHAVIORS)),
  },
  steer: { message: required(string), images: optional(images) },
  follow_up: { message: required(string), images: optional(images) },
  abort: {},
  clear_queue: {},
  new_session: { parentSession: optional(nonEmptyString) },
  get_state: {},
  get_messages: {},
  set_model: { provider: required(nonEmptyString), modelId: required(nonEmptyString) },
  cycle_model: {},
  get_available_models: {},
  set_thinking_level: { level: required(oneOf(THINKING_LEVELS)) },
  cycle_thinking_level: {},
  get_available_thinking_levels: {},
  set_steering_mode: { mode: required(oneOf(QUEUE_MODES)) },
  set_follow_up_mode: { mode: required(oneOf(QUEUE_MODES)) },
  compact: { customInstructions: optional(string) },
  set_auto_compaction: { enabled: required(boolean) },
  set_auto_retry: { enabled: required(boolean) },
  abort_retry: {},
  bash: { command: required(nonEmptyString), excludeFromContext: optional(boolean) },
  abort_bash: {},
  get_session_stats: {},
  export_html: { outputPath: optional(nonEmptyString) },
  switch_session: { sessionPath: required(nonEmptyString) },
  fork: { entryId: required(nonEmptyString) },
  clone: {},
  get_fork_messages: {},
  get_entries: { since: optional(nonEmptyString) },
  get_tree: {},
  get_last_assistant_text: {},
  set_session_name: { name: required(nonBlankString) },
  get_commands: {},
};

/**
 * Checks a command before it is sent: a known `type`, an `id` that is a string or finite number,
 * and every field's presence, type and allowed values. Unknown extra fields are allowed.
 * Returns `undefined` when valid, else a `ProtocolError` with code `invalid_command` and
 * `detail: {field, command}` (`field` is `null` when the value is not an object at all).
 */
export function validateCommand(value: unknown): ProtocolError | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return invalid("A command must be a JSON object", null, undefined);
  }
  const command = value as Record<string, unknown>;
  const type = command.type;
  if (!isCommandType(type)) {
    const hint =
      type === "extension_ui_response" ? " (check UI responses with validateUiResponse)" : "";
    return invalid(
      `\`type\` must be a known command type, got ${describe(type)}${hint}; known: ${COMMAND_TYPES.join(", ")}`,
      "type",
      undefined,
    );
  }
  const id = command.id;
  if (
    id !== undefined &&
    typeof id !== "string" &&
    !(typeof id === "number" && Number.isFinite(id))
  ) {
    return invalid(`\`${type}.id\` must be a string or a finite number`, "id", type);
  }
  const fields: Readonly<Record<string, FieldSpec>> = COMMAND_FIELDS[type];
  for (const name in fields) {
    const spec = fields[name] as FieldSpec;
    const fieldValue = command[name];
    if (fieldValue === undefined) {
      if (spec.required) {
        return invalid(
          `\`${type}.${name}\` is required and must be ${spec.rule.expected}`,
          name,
          type,
        );
      }
      continue;
    }
    if (!spec.rule.test(fieldValue)) {
      return invalid(
        `\`${type}.${name}\` must be ${spec.rule.expected}, got ${describe(fieldValue)}`,
        name,
        type,
      );
    }
  }
  return undefined;
}

/**
 * Checks an extension-UI response: `type: "extension_ui_response"`, a non-empty string `id`, and
 * exactly one of `value` (string), `confirmed` (boolean) or `cancelled: true`.
 */
export function validateUiResponse(value: unknown): ProtocolError | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return invalid("A UI response must be a JSON object", null, undefined);
  }
  const response = value as Record<string, unknown>;
  if (response.type !== "extension_ui_response") {
    return invalid(
      `\`type\` must be "extension_ui_response", got ${describe(response.type)}`,
      "type",
      undefined,
    );
  }
  if (!nonEmptyString.test(response.id)) {
    return invalid(
      "`extension_ui_response.id` must be the request's id (a non-empty string)",
      "id",
      undefined,
    );
  }
  const forms = UI_RESPONSE_FORMS.filter((form) => response[form.field] !== undefined);
  const form = forms[0];
  if (form === undefined || forms.length > 1) {
    return invalid(
      "An extension_ui_response needs exactly one of `value` (string), `confirmed` (boolean) or `cancelled: true`",
      forms.length > 1 ? forms.map((f) => f.field).join(",") : "value",
      undefined,
    );
  }
  if (!form.rule.test(response[form.field])) {
    return invalid(
      `\`extension_ui_response.${form.field}\` must be ${form.rule.expected}, got ${describe(response[form.field])}`,
      form.field,
      undefined,
    );
  }
  return undefined;
}

/** The three answer forms: pi reads a wrong-typed answer as a cancellation (or passes it through). */
const UI_RESPONSE_FORMS: readonly { readonly field: string; readonly rule: Rule }[] = [
  { field: "value", rule: string },
  { field: "confirmed", rule: boolean },
  { field: "cancelled", rule: { test: (v) => v === true, expected: "true" } },
];

function invalid(
  message: string,
  field: string | null,
  command: CommandType | undefined,
): ProtocolError {
  const detail = command === undefined ? { field } : { field, command };
  return new ProtocolError(ProtocolErrorCode.InvalidCommand, message, { detail });
}

function describe(value: unknown): string {
  if (value === undefined) return "undefined";
  if (typeof value === "string")
    return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (Array.isArray(value)) return "an array";
  if (value === null) return "null";
  return typeof value === "object" ? "an object" : String(value);
}
