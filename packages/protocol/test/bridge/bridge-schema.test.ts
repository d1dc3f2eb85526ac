/**
 * `bridge-schema.json` (generated from the bridge protocol's types by `scripts/build-schema.mjs`):
 * the records, close reasons and bodies a bridge really produces validate, built with the
 * protocol's own helpers and in the shapes the bridge's tests pin; malformed ones are rejected;
 * and every JSON example of docs/bridge-protocol.md validates against the definition it names,
 * while its tables of error codes and close codes match the protocol's.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { parseTranscript } from "@pi-kit/protocol";
import {
  BRIDGE_ERROR_STATUS,
  BridgeCloseCode,
  type BridgeControlRecord,
  type BridgeDialogClosedRecord,
  BridgeErrorCode,
  type BridgeErrorRecord,
  type BridgePingRecord,
  type BridgeRunSnapshotRecord,
  type BridgeTakeControlCommand,
  closeReason,
  MAX_CLOSE_REASON_BYTES,
  parseBridgeRecord,
  parseCloseReason,
  parseRunSnapshot,
  refusalReason,
  type SessionPage,
  type SessionSummary,
  TicketRefusal,
  tooBigReason,
} from "@pi-kit/protocol/bridge";
import { Ajv, type ValidateFunction } from "ajv";

const read = (path: string): string => readFileSync(new URL(path, import.meta.url), "utf8");
const bridgeSchema = JSON.parse(read("../../bridge-schema.json"));
const piSchema = JSON.parse(read("../../schema.json"));
const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
ajv.addSchema(bridgeSchema, "bridge");
ajv.addSchema(piSchema, "pi");

/** The validator of definition `name` of the bridge schema, or of pi's for `pi:<name>`. */
function definition(name: string): ValidateFunction {
  const [schema, type] = name.startsWith("pi:") ? ["pi", name.slice(3)] : ["bridge", name];
  const validate = ajv.getSchema(`${schema}#/definitions/${type}`);
  assert.ok(validate, `${schema} schema has no definition ${type}`);
  return validate;
}
const bridgeRoot = ajv.getSchema("bridge") as ValidateFunction;
const piEvent = definition("pi:RpcEvent");

function valid(name: string, value: unknown, where = JSON.stringify(value)): void {
  const validate = definition(name);
  assert.ok(validate(value), `${where}: ${ajv.errorsText(validate.errors)}`);
  if (!name.startsWith("pi:")) assert.ok(bridgeRoot(value), `${where}: the root rejects it`);
}

/** The JSON of a record as the bridge sends it: one text message, parsed back. */
const wire = (record: object): unknown => JSON.parse(JSON.stringify(record));

describe("bridge-schema.json: its roots", () => {
  test("the root accepts exactly the protocol's roots", () => {
    const roots = (bridgeSchema.anyOf as { $ref: string }[]).map((r) =>
      r.$ref.replace("#/definitions/", ""),
    );
    assert.deepEqual(roots, [
      "BridgeRecord",
      "BridgeRunSnapshotRecord",
      "BridgeTakeControlCommand",
      "BridgeCloseReason",
      "BridgeErrorBody",
      "SessionPage",
      "SessionSummary",
      "CheckpointList",
      "ChangeSet",
      "FileDiff",
      "RevertFileBody",
      "FileSearchPage",
      "UploadQuota",
      "UploadRequest",
      "UploadStatus",
    ]);
  });
  test("the error codes are the protocol's", () => {
    assert.deepEqual(bridgeSchema.definitions.BridgeErrorCode.enum, Object.values(BridgeErrorCode));
    assert.deepEqual(bridgeSchema.definitions.TicketRefusal.enum, Object.values(TicketRefusal));
  });
});

describe("bridge-schema.json accepts what a bridge sends", () => {
  // The shapes of packages/bridge/test/sessions/session-control.test.ts and viewers.test.ts.
  const control: BridgeControlRecord[] = [
    {
      type: "bridge_control",
      you: { id: 1, label: "viewer 1", readOnly: false },
      controller: { id: 1, label: "viewer 1" },
      viewers: 1,
    },
    {
      type: "bridge_control",
      you: { id: 2, label: "Phone", readOnly: false },
      controller: null,
      viewers: 1,
    },
    {
      type: "bridge_control",
      you: { id: 3, label: "connection 3", readOnly: true },
      controller: { id: 2, label: "Phone" },
      viewers: 2,
    },
  ];
  const errors: BridgeErrorRecord[] = [
    {
      type: "bridge_error",
      command: "bridge_take_control",
      code: "read_only",
      error: "This connection is read-only: it can watch the session, never control it",
    },
    {
      type: "bridge_error",
      command: "extension_ui_response",
      id: "ui-1",
      code: "not_in_control",
      error: "Denied by bridge policy: this connection is watching (Desk is in control)",
    },
  ];
  const closed: BridgeDialogClosedRecord = {
    type: "bridge_dialog_closed",
    id: "ui-1",
    by: { id: 1, label: "Desk" },
  };
  const ping: BridgePingRecord = { type: "bridge_ping", intervalMs: 15_000 };
  for (const record of [...control, ...errors, closed, ping]) {
    test(`${record.type}: ${JSON.stringify(record).slice(0, 80)}`, () => {
      valid("BridgeRecord", wire(record));
      // The protocol's own parser reads it too: the schema and the parser agree.
      assert.deepEqual(parseBridgeRecord(JSON.stringify(record)), record);
    });
  }

  test("bridge_take_control", () => {
    const command: BridgeTakeControlCommand = { type: "bridge_take_control" };
    valid("BridgeTakeControlCommand", wire(command));
  });

  test("bridge_run_snapshot of a real run, its records pi's own events", () => {
    // The start of a streamed answer as pi 1.6 wrote it: what a joining socket gets first.
    const lines = parseTranscript(read("../fixtures/pi-1.6.0/text.jsonl"))
      .map((entry) => entry.record)
      .filter(
        (line) =>
          line === '{"type":"agent_start"}' ||
          line.startsWith('{"type":"message_start","message":{"role":"assistant"'),
      );
    assert.equal(lines.length, 2);
    const snapshot: BridgeRunSnapshotRecord = { type: "bridge_run_snapshot", records: lines };
    valid("BridgeRunSnapshotRecord", wire(snapshot));
    assert.deepEqual(parseRunSnapshot(JSON.stringify(snapshot)), snapshot);
    for (const line of lines) assert.ok(piEvent(JSON.parse(line)), line);
  });

  const reasons: [string, string][] = [
    ["exit", closeReason({ reason: "exit", exitCode: 1, signal: null }, "x".repeat(400))],
    ["killed", closeReason({ reason: "exit", exitCode: null, signal: "SIGKILL" }, "")],
    ["closed", closeReason({ reason: "closed" })],
    ["shutdown", closeReason({ reason: "shutdown" })],
    ["stalled", closeReason({ reason: "stalled" })],
    ["rate", closeReason({ reason: "rate_limit", perSecond: 50 })],
    ["binary", closeReason({ reason: "binary", detail: "send text" })],
    ["too big", tooBigReason(1024 * 1024)],
    ["expired", refusalReason("The ticket has expired", TicketRefusal.Expired)],
    ["long words", refusalReason("y".repeat(300), BridgeErrorCode.InvalidSessionName)],
  ];
  for (const [name, text] of reasons) {
    test(`close reason: ${name}`, () => {
      assert.ok(new TextEncoder().encode(text).length <= MAX_CLOSE_REASON_BYTES);
      valid("BridgeCloseReason", JSON.parse(text), text);
      assert.notDeepEqual(parseCloseReason(text), {});
    });
  }

  test("an error body for every code, and every code has a status", () => {
    for (const code of [...Object.values(BridgeErrorCode), ...Object.values(TicketRefusal)])
      valid("BridgeErrorBody", { error: "What went wrong", code });
    for (const code of Object.values(BridgeErrorCode))
      assert.ok(BRIDGE_ERROR_STATUS[code] >= 400, code);
  });

  test("a history page and its summaries", () => {
    const summary: SessionSummary = {
      name: "parser-fix",
      title: "Parser speed",
      createdAt: "2026-11-30T09:12:04.511Z",
      lastActivity: "2026-11-30T09:40:51.020Z",
      messageCount: 3,
      state: "stopped",
      sizeBytes: 4821,
      damaged: "1 line of 2026-11-30T09-12-04-511Z_1f3a.jsonl could not be read",
      interrupted: true,
      forks: [
        {
          file: "a.jsonl",
          title: "Parser speed",
          createdAt: "2026-11-30T09:12:04.511Z",
          lastActivity: "2026-11-30T09:20:00.000Z",
          messageCount: 2,
          current: false,
        },
        {
          file: "b.jsonl",
          title: "Parser speed (fork)",
          createdAt: "2026-11-30T09:21:00.000Z",
          lastActivity: "2026-11-30T09:40:51.020Z",
          messageCount: 3,
          current: true,
          forkedFrom: "a.jsonl",
        },
      ],
    };
    valid("SessionSummary", wire(summary));
    const pages: SessionPage[] = [
      { sessions: [summary], nextCursor: "abc" },
      { sessions: [], nextCursor: null },
    ];
    for (const page of pages) valid("SessionPage", wire(page));
  });
});

describe("bridge-schema.json rejects malformed records", () => {
  const ref = { id: 1, label: "Desk" };
  const bad: [string, unknown][] = [
    ["BridgeRecord", { type: "bridge_control", you: { ...ref, readOnly: false }, controller: ref }],
    ["BridgeRecord", { type: "bridge_control", you: ref, controller: null, viewers: 1 }],
    [
      "BridgeRecord",
      { type: "bridge_control", you: { ...ref, readOnly: false }, controller: "Desk", viewers: 1 },
    ],
    [
      "BridgeRecord",
      { type: "bridge_error", command: "bridge_take_control", code: "nope", error: "" },
    ],
    ["BridgeRecord", { type: "bridge_error", command: "bridge_take_control", code: "read_only" }],
    ["BridgeRecord", { type: "bridge_dialog_closed", id: "ui-1" }],
    ["BridgeRecord", { type: "bridge_dialog_closed", id: 1, by: ref }],
    ["BridgeRecord", { type: "bridge_ping" }],
    ["BridgeRecord", { type: "bridge_ping", intervalMs: "15000" }],
    ["BridgeRecord", { type: "bridge_run_snapshot", records: [] }],
    ["BridgeRecord", { type: "agent_start" }],
    [
      "BridgeRunSnapshotRecord",
      { type: "bridge_run_snapshot", records: [{ type: "agent_start" }] },
    ],
    ["BridgeRunSnapshotRecord", { type: "bridge_run_snapshot" }],
    ["BridgeTakeControlCommand", { type: "bridge_take_controls" }],
    ["BridgeCloseReason", { reason: "exit", exitCode: "1" }],
    ["BridgeCloseReason", { reason: "too_big", max: "1 MiB" }],
    ["BridgeCloseReason", "stalled"],
    ["BridgeErrorBody", { error: "I'm a teapot", code: "teapot" }],
    ["BridgeErrorBody", { code: "wrong_token" }],
    ["SessionPage", { sessions: [] }],
    ["SessionPage", { sessions: [{ name: "x" }], nextCursor: null }],
    [
      "SessionSummary",
      {
        name: "a",
        title: "",
        createdAt: "",
        lastActivity: "",
        messageCount: 0,
        state: "sleeping",
        sizeBytes: 0,
      },
    ],
  ];
  for (const [name, value] of bad) {
    test(`${name}: ${JSON.stringify(value)}`, () => assert.equal(definition(name)(value), false));
  }
  // Every field of a close reason is optional, so the root takes any object; nothing else.
  test("the root takes no scalar and no array", () => {
    for (const value of ["stalled", 4001, null, [{ type: "bridge_take_control" }]])
      assert.equal(bridgeRoot(value), false, JSON.stringify(value));
  });
});

describe("docs/bridge-protocol.md", () => {
  const doc = read("../../../../docs/bridge-protocol.md");

  /** Each fenced ```json block, with the definition the comment before it names. */
  const examples = [
    ...doc.matchAll(/(?:<!-- schema: ([\w:]+) -->\n\s*)?```json\n([\s\S]*?)\n```/g),
  ];

  test("has examples, each one tagged with its definition", () => {
    assert.ok(examples.length >= 15, `only ${examples.length} examples`);
    for (const [block, name] of examples)
      assert.ok(name, `an example without <!-- schema: Definition -->:\n${block}`);
  });

  for (const [i, [, name, text]] of examples.entries()) {
    test(`example ${i + 1} is a valid ${name}`, () => {
      const value = JSON.parse(text as string);
      valid(name as string, value, `example ${i + 1}`);
      // A snapshot's records are pi's own events.
      if (name === "BridgeRunSnapshotRecord")
        for (const line of value.records) assert.ok(piEvent(JSON.parse(line)), line);
    });
  }

  test("shows every record, reason, body, history and changes shape", () => {
    const shown = new Set(examples.map(([, name]) => name));
    for (const name of [
      "BridgeControlRecord",
      "BridgeTakeControlCommand",
      "BridgeErrorRecord",
      "BridgeDialogClosedRecord",
      "BridgeRunSnapshotRecord",
      "BridgeCloseReason",
      "BridgeErrorBody",
      "SessionPage",
      "SessionSummary",
      "CheckpointList",
      "ChangeSet",
      "FileDiff",
      "RevertFileBody",
    ])
      assert.ok(shown.has(name), `no example of ${name}`);
  });

  test("its error table gives every code with its HTTP status", () => {
    const rows = new Map(
      [...doc.matchAll(/^\| `([a-z_]+)` +\| (\d{3}) +\|/gm)].map(([, code, status]) => [
        code,
        Number(status),
      ]),
    );
    for (const code of Object.values(BridgeErrorCode))
      assert.equal(rows.get(code), BRIDGE_ERROR_STATUS[code], code);
    for (const code of Object.values(TicketRefusal)) {
      const status =
        code === TicketRefusal.NotInTicket || code === TicketRefusal.ReadOnly ? 403 : 401;
      assert.equal(rows.get(code), status, code);
    }
  });

  test("its close code table has every code the bridge sends", () => {
    const codes = new Set([...doc.matchAll(/^\| (\d{4}) \|/gm)].map(([, code]) => Number(code)));
    for (const code of Object.values(BridgeCloseCode)) assert.ok(codes.has(code), `${code}`);
  });
});
