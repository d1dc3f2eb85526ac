import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  COMMAND_TYPES,
  COMMANDS_ADDED_IN_V1,
  CommandType,
  DIALOG_METHODS,
  EVENT_TYPES,
  EVENTS_ADDED_IN_V1,
  FIRE_AND_FORGET_METHODS,
  isCommandType,
  isDialogMethod,
  isEventType,
  isUiMethod,
  MESSAGE_ROLES,
  QUEUE_MODES,
  STREAMING_BEHAVIORS,
  THINKING_LEVELS,
  UI_METHODS,
} from "@pi-kit/protocol";

function assertUnique(list: readonly string[]): void {
  assert.equal(new Set(list).size, list.length, `duplicates in ${list.join(",")}`);
}

function assertSubset(subset: readonly string[], of: readonly string[]): void {
  for (const item of subset) assert.ok(of.includes(item), `${item} is not in the full list`);
}

describe("catalog", () => {
  test("33 command types, matching the CommandType table", () => {
    assert.equal(COMMAND_TYPES.length, 33);
    assertUnique(COMMAND_TYPES);
    assert.deepEqual([...COMMAND_TYPES].sort(), Object.values(CommandType).sort());
  });

  test("four commands were added in 1.x", () => {
    assert.deepEqual([...COMMANDS_ADDED_IN_V1].sort(), [
      "clear_queue",
      "get_available_thinking_levels",
      "get_entries",
      "get_tree",
    ]);
    assertSubset(COMMANDS_ADDED_IN_V1, COMMAND_TYPES);
  });

  test("24 event types, including the three seen live", () => {
    assert.equal(EVENT_TYPES.length, 24);
    assertUnique(EVENT_TYPES);
    assertSubset(["entry_appended", "session_info_changed", "thinking_level_changed"], EVENT_TYPES);
    assertSubset(EVENTS_ADDED_IN_V1, EVENT_TYPES);
    assert.ok(!EVENT_TYPES.includes("response" as never));
    assert.ok(!EVENT_TYPES.includes("extension_ui_request" as never));
  });

  test("9 UI methods: 4 dialogs and 5 fire-and-forget", () => {
    assert.equal(UI_METHODS.length, 9);
    assert.equal(DIALOG_METHODS.length, 4);
    assert.equal(FIRE_AND_FORGET_METHODS.length, 5);
    assertUnique(UI_METHODS);
    assert.deepEqual(
      [...DIALOG_METHODS, ...FIRE_AND_FORGET_METHODS].sort(),
      [...UI_METHODS].sort(),
    );
  });

  test("enum lists", () => {
    assert.deepEqual(QUEUE_MODES, ["all", "one-at-a-time"]);
    assert.deepEqual(STREAMING_BEHAVIORS, ["steer", "followUp"]);
    assert.deepEqual(THINKING_LEVELS, ["off", "minimal", "low", "medium", "high", "xhigh", "max"]);
    assertUnique(MESSAGE_ROLES);
    assertSubset(["system", "bashExecution"], MESSAGE_ROLES);
  });

  test("guards accept exactly the listed names", () => {
    for (const type of COMMAND_TYPES) assert.ok(isCommandType(type));
    for (const type of EVENT_TYPES) assert.ok(isEventType(type));
    for (const method of UI_METHODS) assert.ok(isUiMethod(method));
    for (const method of DIALOG_METHODS) assert.ok(isDialogMethod(method));
    for (const method of FIRE_AND_FORGET_METHODS) assert.ok(!isDialogMethod(method));
    for (const bogus of ["", "__proto__", "constructor", "response", 1, null, undefined]) {
      assert.ok(!isCommandType(bogus));
      assert.ok(!isEventType(bogus));
      assert.ok(!isUiMethod(bogus));
    }
  });

  test("lists are frozen at the type level and stable at runtime", () => {
    assert.ok(Array.isArray(COMMAND_TYPES));
    assert.equal(COMMAND_TYPES[0], "prompt");
  });
});
