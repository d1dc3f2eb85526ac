import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  COMMAND_TYPES,
  type CommandOf,
  type CommandType,
  ProtocolError,
  ProtocolErrorCode,
  QUEUE_MODES,
  THINKING_LEVELS,
  validateCommand,
  validateUiResponse,
} from "@pi-kit/protocol";

/** A valid command of every type, with every optional field filled in. */
const VALID: { readonly [T in CommandType]: CommandOf<T> } = {
  prompt: {
    type: "prompt",
    id: "p1",
    message: "hi",
    images: [{ type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" }],
    streamingBehavior: "followUp",
  },
  steer: { type: "steer", message: "go left", images: [] },
  follow_up: { type: "follow_up", id: 7, message: "then this" },
  abort: { type: "abort" },
  clear_queue: { type: "clear_queue" },
  new_session: { type: "new_session", parentSession: "/s/a.jsonl" },
  get_state: { type: "get_state", id: 0 },
  get_messages: { type: "get_messages" },
  set_model: { type: "set_model", provider: "fake", modelId: "fake-1" },
  cycle_model: { type: "cycle_model" },
  get_available_models: { type: "get_available_models" },
  set_thinking_level: { type: "set_thinking_level", level: "high" },
  cycle_thinking_level: { type: "cycle_thinking_level" },
  get_available_thinking_levels: { type: "get_available_thinking_levels" },
  set_steering_mode: { type: "set_steering_mode", mode: "all" },
  set_follow_up_mode: { type: "set_follow_up_mode", mode: "one-at-a-time" },
  compact: { type: "compact", customInstructions: "keep the plan" },
  set_auto_compaction: { type: "set_auto_compaction", enabled: false },
  set_auto_retry: { type: "set_auto_retry", enabled: true },
  abort_retry: { type: "abort_retry" },
  bash: { type: "bash", id: "b1", command: "ls -la", excludeFromContext: true },
  abort_bash: { type: "abort_bash" },
  get_session_stats: { type: "get_session_stats" },
  export_html: { type: "export_html", outputPath: "/tmp/x.html" },
  switch_session: { type: "switch_session", sessionPath: "/s/b.jsonl" },
  fork: { type: "fork", entryId: "0048bc1e" },
  clone: { type: "clone" },
  get_fork_messages: { type: "get_fork_messages" },
  get_entries: { type: "get_entries", since: "44f54b37" },
  get_tree: { type: "get_tree" },
  get_last_assistant_text: { type: "get_last_assistant_text" },
  set_session_name: { type: "set_session_name", name: "refactor" },
  get_commands: { type: "get_commands" },
};

/** Invalid variants per command: [label, value, field the error must name]. */
const INVALID: { readonly [T in CommandType]?: readonly (readonly [string, unknown, string])[] } = {
  prompt: [
    ["missing message", { type: "prompt" }, "message"],
    ["numeric message", { type: "prompt", message: 5 }, "message"],
    [
      "bogus streamingBehavior",
      { type: "prompt", message: "x", streamingBehavior: "queue" },
      "streamingBehavior",
    ],
    ["images not an array", { type: "prompt", message: "x", images: {} }, "images"],
    [
      "image without mimeType",
      { type: "prompt", message: "x", images: [{ type: "image", data: "a" }] },
      "images",
    ],
    [
      "image of the wrong type",
      { type: "prompt", message: "x", images: [{ type: "text", data: "a", mimeType: "m" }] },
      "images",
    ],
  ],
  steer: [
    ["missing message", { type: "steer" }, "message"],
    ["null image", { type: "steer", message: "x", images: [null] }, "images"],
  ],
  follow_up: [["missing message", { type: "follow_up", images: [] }, "message"]],
  new_session: [
    ["numeric parentSession", { type: "new_session", parentSession: 1 }, "parentSession"],
  ],
  set_model: [
    ["missing modelId", { type: "set_model", provider: "fake" }, "modelId"],
    ["empty provider", { type: "set_model", provider: "", modelId: "m" }, "provider"],
  ],
  set_thinking_level: [
    ["bogus level", { type: "set_thinking_level", level: "bogus" }, "level"],
    ["missing level", { type: "set_thinking_level" }, "level"],
  ],
  set_steering_mode: [
    ["bogus mode", { type: "set_steering_mode", mode: "bogus" }, "mode"],
    ["missing mode", { type: "set_steering_mode" }, "mode"],
  ],
  set_follow_up_mode: [
    ["camelCase mode", { type: "set_follow_up_mode", mode: "oneAtATime" }, "mode"],
  ],
  compact: [
    ["numeric instructions", { type: "compact", customInstructions: 1 }, "customInstructions"],
  ],
  set_auto_compaction: [
    ["string enabled", { type: "set_auto_compaction", enabled: "true" }, "enabled"],
  ],
  set_auto_retry: [["missing enabled", { type: "set_auto_retry" }, "enabled"]],
  bash: [
    ["missing command (pi would run `undefined`)", { type: "bash" }, "command"],
    ["empty command", { type: "bash", command: "" }, "command"],
    [
      "string excludeFromContext",
      { type: "bash", command: "ls", excludeFromContext: "yes" },
      "excludeFromContext",
    ],
  ],
  export_html: [["empty outputPath", { type: "export_html", outputPath: "" }, "outputPath"]],
  switch_session: [
    ["missing sessionPath", { type: "switch_session" }, "sessionPath"],
    ["numeric sessionPath", { type: "switch_session", sessionPath: 3 }, "sessionPath"],
  ],
  fork: [["missing entryId", { type: "fork" }, "entryId"]],
  get_entries: [["numeric since", { type: "get_entries", since: 4 }, "since"]],
  set_session_name: [
    ["blank name", { type: "set_session_name", name: "  \t" }, "name"],
    ["missing name", { type: "set_session_name" }, "name"],
  ],
};

/** Commands with a required field, so a bare `{type}` is invalid. */
const WITH_REQUIRED_FIELDS: ReadonlySet<CommandType> = new Set<CommandType>([
  "prompt",
  "steer",
  "follow_up",
  "set_model",
  "set_thinking_level",
  "set_steering_mode",
  "set_follow_up_mode",
  "set_auto_compaction",
  "set_auto_retry",
  "bash",
  "switch_session",
  "fork",
  "set_session_name",
]);

function expectInvalid(value: unknown, field: string | null): ProtocolError {
  const error = validateCommand(value);
  assert.ok(error instanceof ProtocolError, `expected an error for ${JSON.stringify(value)}`);
  assert.equal(error.code, ProtocolErrorCode.InvalidCommand);
  assert.equal(error.detail?.field, field);
  return error;
}

describe("validateCommand", () => {
  test("the table covers every command type", () => {
    assert.deepEqual(Object.keys(VALID).sort(), [...COMMAND_TYPES].sort());
  });

  for (const type of COMMAND_TYPES) {
    test(`${type}: valid`, () => {
      assert.equal(validateCommand(VALID[type]), undefined);
      const bare = validateCommand({ type });
      assert.equal(bare === undefined, !WITH_REQUIRED_FIELDS.has(type), `bare {type: ${type}}`);
    });
    for (const [label, value, field] of INVALID[type] ?? []) {
      test(`${type}: invalid, ${label}`, () => {
        const error = expectInvalid(value, field);
        assert.equal(error.detail?.command, type);
        assert.match(error.message, new RegExp(`\`${type}\\.${field}\``));
      });
    }
    test(`${type}: a non-string, non-number id is rejected`, () => {
      expectInvalid({ ...VALID[type], id: { n: 1 } }, "id");
      expectInvalid({ ...VALID[type], id: Number.NaN }, "id");
    });
  }

  test("enum errors list the allowed values", () => {
    const mode = expectInvalid({ type: "set_steering_mode", mode: "bogus" }, "mode");
    for (const allowed of QUEUE_MODES) assert.ok(mode.message.includes(`"${allowed}"`));
    const level = expectInvalid({ type: "set_thinking_level", level: "ultra" }, "level");
    for (const allowed of THINKING_LEVELS) assert.ok(level.message.includes(`"${allowed}"`));
    const behavior = expectInvalid(
      { type: "prompt", message: "", streamingBehavior: "steering" },
      "streamingBehavior",
    );
    assert.match(behavior.message, /"steer", "followUp"/);
  });

  test("an empty prompt message is allowed (pi sends it to the model)", () => {
    assert.equal(validateCommand({ type: "prompt", message: "" }), undefined);
  });

  test("unknown extra fields are allowed", () => {
    assert.equal(validateCommand({ type: "abort", extra: true }), undefined);
  });

  test("unknown or missing type is rejected", () => {
    for (const value of [
      { type: "frobnicate" },
      {},
      { type: 3 },
      { type: "__proto__" },
      { type: "toString" },
    ]) {
      expectInvalid(value, "type");
    }
    const ui = expectInvalid({ type: "extension_ui_response", id: "x", value: "a" }, "type");
    assert.match(ui.message, /validateUiResponse/);
  });

  test("non-objects are rejected, never thrown on", () => {
    for (const value of [null, undefined, [1, 2], "get_state", 42, true]) {
      expectInvalid(value, null);
    }
  });
});

describe("validateUiResponse", () => {
  const valid = [
    { type: "extension_ui_response", id: "a", value: "B" },
    { type: "extension_ui_response", id: "a", value: "" },
    { type: "extension_ui_response", id: "a", confirmed: true },
    { type: "extension_ui_response", id: "a", confirmed: false },
    { type: "extension_ui_response", id: "a", cancelled: true },
  ];
  for (const value of valid) {
    test(`valid: ${JSON.stringify(value)}`, () => {
      assert.equal(validateUiResponse(value), undefined);
    });
  }

  const invalid: readonly (readonly [string, unknown, string | null])[] = [
    ["null", null, null],
    ["array", [], null],
    ["wrong type", { type: "response", id: "a", value: "x" }, "type"],
    ["missing id", { type: "extension_ui_response", value: "x" }, "id"],
    ["empty id", { type: "extension_ui_response", id: "", value: "x" }, "id"],
    ["no form", { type: "extension_ui_response", id: "a" }, "value"],
    [
      "numeric value (pi would pass 123 through)",
      { type: "extension_ui_response", id: "a", value: 123 },
      "value",
    ],
    ["string confirmed", { type: "extension_ui_response", id: "a", confirmed: "yes" }, "confirmed"],
    ["cancelled false", { type: "extension_ui_response", id: "a", cancelled: false }, "cancelled"],
    [
      "two forms",
      { type: "extension_ui_response", id: "a", value: "x", cancelled: true },
      "value,cancelled",
    ],
  ];
  for (const [label, value, field] of invalid) {
    test(`invalid: ${label}`, () => {
      const error = validateUiResponse(value);
      assert.ok(error instanceof ProtocolError);
      assert.equal(error.code, ProtocolErrorCode.InvalidCommand);
      assert.equal(error.detail?.field, field);
    });
  }
});
