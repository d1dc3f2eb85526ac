import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  EVENT_TYPES,
  type InboundMessage,
  ProtocolErrorCode,
  parseInbound,
  type RpcEvent,
  type RpcEventType,
  UI_METHODS,
} from "@pi-kit/protocol";
import fc from "fast-check";

/** Narrows or fails the test. */
function expectKind<K extends InboundMessage["kind"]>(
  message: InboundMessage,
  kind: K,
): Extract<InboundMessage, { kind: K }> {
  assert.equal(message.kind, kind, `expected ${kind}, got ${JSON.stringify(message)}`);
  return message as Extract<InboundMessage, { kind: K }>;
}

const usage =
  '{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}}';

// Lines as observed live (pi-rpc.md); `…` elisions filled in with plausible values.
const OBSERVED_RESPONSES: readonly (readonly [label: string, line: string])[] = [
  [
    "v1 get_state",
    '{"id":"s","type":"response","command":"get_state","success":true,"data":{"model":{"id":"fake-1","name":"Fake One","api":"openai-completions","provider":"fake","baseUrl":"http://127.0.0.1:18080/v1","reasoning":false,"input":["text"],"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0},"contextWindow":32000,"maxTokens":4000,"compat":{"supportsDeveloperRole":false,"supportsReasoningEffort":false}},"thinkingLevel":"off","isStreaming":false,"isCompacting":false,"steeringMode":"one-at-a-time","followUpMode":"one-at-a-time","sessionId":"01a22ab6-3fbb-7200-881f-1d7ddef70855","autoCompactionEnabled":true,"messageCount":0,"pendingMessageCount":0}}',
  ],
  ["v0 prompt", '{"id":"p1","type":"response","command":"prompt","success":true}'],
  [
    "v1 prompt",
    '{"id":"p1","type":"response","command":"prompt","success":true,"data":{"disposition":"started"}}',
  ],
  [
    "v1 prompt handled",
    '{"id":"p1","type":"response","command":"prompt","success":true,"data":{"disposition":"handled"}}',
  ],
  [
    "v1 get_entries",
    '{"id":"e2","type":"response","command":"get_entries","success":true,"data":{"entries":[{"type":"message","id":"44f54b37","parentId":"5c13e70b","timestamp":"2026-11-30T04:12:02.968Z","message":{"role":"user","content":[{"type":"text","text":"second prompt"}],"timestamp":1796011922966}}],"leafId":"f421a7b9"}}',
  ],
  [
    "v1 get_entries failure",
    '{"id":"e3","type":"response","command":"get_entries","success":false,"error":"Entry not found: nope"}',
  ],
  [
    "get_fork_messages",
    '{"id":"f","type":"response","command":"get_fork_messages","success":true,"data":{"messages":[{"entryId":"0048bc1e","text":"first prompt"},{"entryId":"44f54b37","text":"second prompt"}]}}',
  ],
  [
    "fork",
    '{"id":"f2","type":"response","command":"fork","success":true,"data":{"text":"first prompt","cancelled":false}}',
  ],
  [
    "v1 bash",
    '{"id":"b1","type":"response","command":"bash","success":true,"data":{"output":"out1\\nout2\\nout3\\nerr\\n","exitCode":3,"cancelled":false,"truncated":false}}',
  ],
  [
    "bash cancelled (no exitCode)",
    '{"id":"b2","type":"response","command":"bash","success":true,"data":{"output":"start\\n","cancelled":true,"truncated":false}}',
  ],
  [
    "numeric id",
    '{"id":42,"type":"response","command":"get_last_assistant_text","success":true,"data":{}}',
  ],
  [
    "v1 clear_queue",
    '{"id":"cq1","type":"response","command":"clear_queue","success":true,"data":{"steering":["steer via prompt","steer cmd"],"followUp":["followup via prompt","followup cmd"]}}',
  ],
  [
    "prompt while streaming",
    `{"id":"p2","type":"response","command":"prompt","success":false,"error":"Agent is already processing. Specify streamingBehavior ('steer' or 'followUp') to queue the message."}`,
  ],
  [
    "v1 compact too small",
    '{"id":"cp1","type":"response","command":"compact","success":false,"error":"Nothing to compact (session too small)"}',
  ],
  ["abort", '{"id":"a1","type":"response","command":"abort","success":true}'],
  [
    "cycle_model null",
    '{"id":"c","type":"response","command":"cycle_model","success":true,"data":null}',
  ],
  [
    "v1 unknown command (with id)",
    '{"id":"u1","type":"response","command":"frobnicate","success":false,"error":"Unknown command: frobnicate"}',
  ],
];

const ID_LESS_FAILURES: readonly (readonly [
  label: string,
  line: string,
  command: string | undefined,
])[] = [
  [
    "parse error",
    `{"type":"response","command":"parse","success":false,"error":"Failed to parse command: Unexpected token 'h', \\"this is not json\\" is not valid JSON"}`,
    "parse",
  ],
  [
    "empty line parse error",
    '{"type":"response","command":"parse","success":false,"error":"Failed to parse command: Unexpected end of JSON input"}',
    "parse",
  ],
  [
    "v0 unknown command drops the id",
    '{"type":"response","command":"frobnicate","success":false,"error":"Unknown command: frobnicate"}',
    "frobnicate",
  ],
  [
    "JSON array gives no command key",
    '{"type":"response","success":false,"error":"Unknown command: undefined"}',
    undefined,
  ],
];

const OBSERVED_EVENTS: readonly (readonly [label: string, line: string])[] = [
  [
    "v0 message_update (quadratic partial and message)",
    '{"type":"message_update","assistantMessageEvent":{"type":"text_delta","contentIndex":0,"delta":"Echo: ","partial":{"role":"assistant","content":[{"type":"text","text":"Echo: "}],"stopReason":"stop"}},"message":{"role":"assistant","content":[{"type":"text","text":"Echo: "}]}}',
  ],
  [
    "v1 message_update",
    `{"type":"message_update","usage":${usage},"assistantMessageEvent":{"type":"text_delta","contentIndex":0,"delta":"Echo: "}}`,
  ],
  [
    "v1 toolcall_start",
    `{"type":"message_update","usage":${usage},"assistantMessageEvent":{"type":"toolcall_start","contentIndex":1,"id":"call_1796012228594","toolName":"bash"}}`,
  ],
  ["v1 bash update with id", '{"type":"bash_execution_update","id":"b1","delta":"out1\\n"}'],
  ["v1 bash update without id", '{"type":"bash_execution_update","delta":"no-id\\n"}'],
  ["v1 agent_settled", '{"type":"agent_settled","aborted":true}'],
  ["queue_update", '{"type":"queue_update","steering":["steer via prompt"],"followUp":[]}'],
  [
    "v1 compaction_end failure",
    '{"type":"compaction_end","reason":"manual","aborted":false,"willRetry":false,"errorMessage":"Compaction failed: Nothing to compact (session too small)"}',
  ],
  [
    "v1 auto_retry_start",
    '{"type":"auto_retry_start","attempt":1,"maxAttempts":3,"delayMs":2000,"errorMessage":"Connection error.: connect ECONNREFUSED 127.0.0.1:18099"}',
  ],
  [
    "v1 auto_retry_end",
    '{"type":"auto_retry_end","success":false,"attempt":3,"finalError":"Connection error."}',
  ],
  [
    "v1 entry_appended context_edit",
    '{"type":"entry_appended","entry":{"type":"context_edit","id":"ab12cd34","parentId":"aa11bb22","timestamp":"2026-11-30T04:12:02.968Z","targetId":"aa11bb22","replacement":null}}',
  ],
  [
    "extension_error",
    '{"type":"extension_error","extensionPath":"command:ui","event":"command","error":"boom from command"}',
  ],
  ["v0 agent_end (no willRetry)", '{"type":"agent_end","messages":[]}'],
  ["v1 agent_end", '{"type":"agent_end","messages":[],"willRetry":true}'],
];

const OBSERVED_UI_REQUESTS: readonly string[] = [
  '{"type":"extension_ui_request","id":"fa4807f7-a6bb-4790-acba-1a8960d8d9f8","method":"select","title":"Pick one","options":["A","B","C"]}',
  '{"type":"extension_ui_request","id":"3cd948f0","method":"confirm","title":"Sure?","message":"Really do it?"}',
  '{"type":"extension_ui_request","id":"c8f8c20f","method":"input","title":"Name","placeholder":"your name"}',
  '{"type":"extension_ui_request","id":"39bc23b3-b94f-49aa-a1b2-03aeaaa0a1c1","method":"editor","title":"Edit text","prefill":"line1\\nline2"}',
  '{"type":"extension_ui_request","id":"d4cb7a0e-0c64-4e37-a5cd-217765daa111","method":"confirm","title":"Sure (timeout)?","message":"msg","timeout":1500}',
  '{"type":"extension_ui_request","id":"af878f98","method":"setStatus","statusKey":"k1","statusText":"working"}',
  '{"type":"extension_ui_request","id":"de8f2b94","method":"setStatus","statusKey":"k1"}',
  '{"type":"extension_ui_request","id":"231c8448","method":"setWidget","widgetKey":"w1","widgetLines":["line a","line b"]}',
  '{"type":"extension_ui_request","id":"f6ca6784","method":"setWidget","widgetKey":"w2","widgetLines":["below"],"widgetPlacement":"belowEditor"}',
  '{"type":"extension_ui_request","id":"fecd6ff1","method":"setWidget","widgetKey":"w1"}',
  '{"type":"extension_ui_request","id":"120a3b5c","method":"setTitle","title":"My Title"}',
  '{"type":"extension_ui_request","id":"1d9699e4","method":"set_editor_text","text":"prefilled editor text"}',
  '{"type":"extension_ui_request","id":"d4f596ab","method":"notify","message":"plain notify"}',
  '{"type":"extension_ui_request","id":"ffb19422","method":"notify","message":"warn notify","notifyType":"warning"}',
];

const assistant = {
  role: "assistant",
  content: [],
  api: "openai-completions",
  provider: "fake",
  model: "fake-1",
  usage: JSON.parse(usage),
  stopReason: "stop",
  timestamp: 1,
} as const;

/** One minimal valid sample per event type; `satisfies` keeps it honest against the types. */
const SAMPLE_EVENTS: { readonly [T in RpcEventType]: Extract<RpcEvent, { type: T }> } = {
  agent_start: { type: "agent_start" },
  agent_end: { type: "agent_end", messages: [] },
  agent_settled: { type: "agent_settled", aborted: false },
  turn_start: { type: "turn_start" },
  turn_end: { type: "turn_end", message: assistant, toolResults: [] },
  message_start: { type: "message_start", message: { role: "user", content: "hi", timestamp: 1 } },
  message_update: {
    type: "message_update",
    assistantMessageEvent: { type: "text_start", contentIndex: 0 },
  },
  message_end: { type: "message_end", message: assistant },
  bash_execution_update: { type: "bash_execution_update", id: 7, delta: "x" },
  tool_execution_start: {
    type: "tool_execution_start",
    toolCallId: "c1",
    toolName: "bash",
    args: { command: "ls" },
  },
  tool_execution_update: {
    type: "tool_execution_update",
    toolCallId: "c1",
    toolName: "bash",
    args: {},
    partialResult: { content: [{ type: "text", text: "partial" }] },
  },
  tool_execution_end: {
    type: "tool_execution_end",
    toolCallId: "c1",
    toolName: "bash",
    result: { content: [] },
    isError: false,
    durationMs: 3,
    parentToolCallId: "c0",
  },
  queue_update: { type: "queue_update", steering: [], followUp: ["f"] },
  compaction_start: { type: "compaction_start", reason: "threshold" },
  compaction_end: { type: "compaction_end", reason: "manual", aborted: false, willRetry: false },
  auto_retry_start: {
    type: "auto_retry_start",
    attempt: 1,
    maxAttempts: 3,
    delayMs: 2000,
    errorMessage: "e",
  },
  auto_retry_end: { type: "auto_retry_end", success: true, attempt: 1 },
  summarization_retry_scheduled: {
    type: "summarization_retry_scheduled",
    attempt: 1,
    maxAttempts: 3,
    delayMs: 1000,
    errorMessage: "e",
  },
  summarization_retry_attempt_start: {
    type: "summarization_retry_attempt_start",
    source: "compaction",
    reason: "overflow",
  },
  summarization_retry_finished: { type: "summarization_retry_finished" },
  extension_error: {
    type: "extension_error",
    extensionPath: "/x.ts",
    event: "tool_call",
    error: "e",
  },
  entry_appended: {
    type: "entry_appended",
    entry: { type: "session_info", id: "a", parentId: null, timestamp: "t", name: "n" },
  },
  session_info_changed: { type: "session_info_changed", name: "n" },
  thinking_level_changed: { type: "thinking_level_changed", level: "high" },
};

describe("parseInbound: responses", () => {
  for (const [label, line] of OBSERVED_RESPONSES) {
    test(`observed ${label}`, () => {
      const { response } = expectKind(parseInbound(line), "response");
      assert.deepEqual(response, JSON.parse(line));
    });
  }

  for (const [label, line, command] of ID_LESS_FAILURES) {
    test(`id-less failure: ${label}`, () => {
      const { response } = expectKind(parseInbound(line), "response");
      assert.equal(response.success, false);
      assert.equal(response.id, undefined);
      assert.equal(response.command, command);
    });
  }

  test("narrowing gives typed data", () => {
    const { response } = expectKind(parseInbound(OBSERVED_RESPONSES[8]?.[1] ?? ""), "response");
    assert.ok(response.success && response.command === "bash");
    assert.equal(response.data.exitCode, 3);
  });

  test("a success response to an unknown command passes through as unknown", () => {
    const line = '{"id":"r","type":"response","command":"reload","success":true,"data":{"ok":1}}';
    const { value } = expectKind(parseInbound(line), "unknown");
    assert.equal(value.type, "response");
    assert.equal(value.id, "r");
  });

  const broken: readonly (readonly [string, string])[] = [
    ["success missing", '{"type":"response","command":"abort"}'],
    ["success not boolean", '{"type":"response","command":"abort","success":"yes"}'],
    ["failure without error text", '{"type":"response","command":"abort","success":false}'],
    ["success without command", '{"type":"response","success":true}'],
    ["object id", '{"type":"response","id":{},"command":"abort","success":true}'],
  ];
  for (const [label, line] of broken) {
    test(`invalid_shape: ${label}`, () => {
      const { error } = expectKind(parseInbound(line), "error");
      assert.equal(error.code, ProtocolErrorCode.InvalidShape);
      assert.equal(error.raw, line);
    });
  }
});

describe("parseInbound: events", () => {
  test("every known event type parses as an event", () => {
    assert.deepEqual(Object.keys(SAMPLE_EVENTS).sort(), [...EVENT_TYPES].sort());
    for (const type of EVENT_TYPES) {
      const line = JSON.stringify(SAMPLE_EVENTS[type]);
      const { event } = expectKind(parseInbound(line), "event");
      assert.equal(event.type, type);
      assert.deepEqual(event, SAMPLE_EVENTS[type]);
    }
  });

  test("bare {type} of each event with no required fields parses", () => {
    for (const type of [
      "agent_start",
      "turn_start",
      "agent_settled",
      "summarization_retry_finished",
    ]) {
      expectKind(parseInbound(`{"type":"${type}"}`), "event");
    }
  });

  for (const [label, line] of OBSERVED_EVENTS) {
    test(`observed ${label}`, () => {
      const { event } = expectKind(parseInbound(line), "event");
      assert.deepEqual(event, JSON.parse(line));
    });
  }

  test("v1 toolcall_start narrows to id and toolName", () => {
    const { event } = expectKind(parseInbound(OBSERVED_EVENTS[2]?.[1] ?? ""), "event");
    assert.ok(event.type === "message_update");
    const step = event.assistantMessageEvent;
    assert.ok(step.type === "toolcall_start");
    assert.equal(step.id, "call_1796012228594");
    assert.equal(step.toolName, "bash");
  });

  const broken: readonly (readonly [string, string, string])[] = [
    ["message_update", '{"type":"message_update","usage":{}}', "assistantMessageEvent"],
    [
      "message_update null step",
      '{"type":"message_update","assistantMessageEvent":null}',
      "assistantMessageEvent",
    ],
    ["message_end", '{"type":"message_end"}', "message"],
    ["agent_end", '{"type":"agent_end","messages":{}}', "messages"],
    ["tool_execution_end", '{"type":"tool_execution_end","toolName":"bash"}', "toolCallId"],
    ["bash_execution_update", '{"type":"bash_execution_update","delta":5}', "delta"],
    ["queue_update", '{"type":"queue_update","steering":[]}', "followUp"],
    ["entry_appended", '{"type":"entry_appended"}', "entry"],
  ];
  for (const [label, line, field] of broken) {
    test(`invalid_shape: ${label} without ${field}`, () => {
      const { error } = expectKind(parseInbound(line), "error");
      assert.equal(error.code, ProtocolErrorCode.InvalidShape);
      assert.equal(error.raw, line);
      assert.equal(error.detail?.field, field);
    });
  }

  test("an unknown event type passes through untouched", () => {
    const line = '{"type":"cache_warm_update","status":"warm","nested":{"a":[1,2]}}';
    const { value } = expectKind(parseInbound(line), "unknown");
    assert.deepEqual(value, JSON.parse(line));
  });
});

describe("parseInbound: extension UI requests", () => {
  for (const line of OBSERVED_UI_REQUESTS) {
    const method = (JSON.parse(line) as { method: string }).method;
    test(`observed ${method} request`, () => {
      const { request } = expectKind(parseInbound(line), "ui_request");
      assert.deepEqual(request, JSON.parse(line));
    });
  }

  test("every UI method is recognised", () => {
    for (const method of UI_METHODS) {
      const extra = method === "select" ? ',"options":[]' : "";
      const line = `{"type":"extension_ui_request","id":"x","method":"${method}"${extra}}`;
      assert.equal(expectKind(parseInbound(line), "ui_request").request.method, method);
    }
  });

  test("an unknown method passes through as unknown, not an error", () => {
    const line = '{"type":"extension_ui_request","id":"x","method":"cancel","targetId":"y"}';
    assert.deepEqual(expectKind(parseInbound(line), "unknown").value, JSON.parse(line));
  });

  const broken: readonly (readonly [string, string])[] = [
    ["missing id", '{"type":"extension_ui_request","method":"confirm","title":"t","message":"m"}'],
    ["numeric id", '{"type":"extension_ui_request","id":1,"method":"notify","message":"m"}'],
    ["missing method", '{"type":"extension_ui_request","id":"x"}'],
    [
      "select without options",
      '{"type":"extension_ui_request","id":"x","method":"select","title":"t"}',
    ],
    [
      "setWidget with string lines",
      '{"type":"extension_ui_request","id":"x","method":"setWidget","widgetKey":"k","widgetLines":"a"}',
    ],
  ];
  for (const [label, line] of broken) {
    test(`invalid_shape: ${label}`, () => {
      const { error } = expectKind(parseInbound(line), "error");
      assert.equal(error.code, ProtocolErrorCode.InvalidShape);
      assert.equal(error.raw, line);
    });
  }
});

describe("parseInbound: garbage", () => {
  const cases: readonly (readonly [string, string, string])[] = [
    ["empty string", "", ProtocolErrorCode.InvalidJson],
    ["not JSON", "this is not json", ProtocolErrorCode.InvalidJson],
    ["truncated JSON", '{"type":"agent_start"', ProtocolErrorCode.InvalidJson],
    ["CR only", "\r", ProtocolErrorCode.InvalidJson],
    ["null", "null", ProtocolErrorCode.NotAnObject],
    ["array", "[1,2]", ProtocolErrorCode.NotAnObject],
    ["number", "42", ProtocolErrorCode.NotAnObject],
    ["string", '"agent_start"', ProtocolErrorCode.NotAnObject],
    ["boolean", "true", ProtocolErrorCode.NotAnObject],
    ["object without type", "{}", ProtocolErrorCode.NotAnObject],
    ["numeric type", '{"type":5}', ProtocolErrorCode.NotAnObject],
    ["null type", '{"type":null}', ProtocolErrorCode.NotAnObject],
    ["__proto__ key", '{"__proto__":{"type":"agent_start"}}', ProtocolErrorCode.NotAnObject],
  ];
  for (const [label, line, code] of cases) {
    test(`${label} is a typed error carrying the raw text`, () => {
      const { error } = expectKind(parseInbound(line), "error");
      assert.equal(error.code, code);
      assert.equal(error.raw, line);
      assert.equal(error.name, "ProtocolError");
    });
  }

  test("prototype-ish type names are unknown, not crashes", () => {
    for (const type of ["__proto__", "constructor", "toString", "hasOwnProperty"]) {
      expectKind(parseInbound(`{"type":"${type}"}`), "unknown");
      const ui = `{"type":"extension_ui_request","id":"x","method":"${type}"}`;
      expectKind(parseInbound(ui), "unknown");
      const response = `{"type":"response","command":"${type}","success":true}`;
      expectKind(parseInbound(response), "unknown");
    }
  });

  test("a huge record is handled", () => {
    const delta = "x".repeat(2_000_000);
    const line = `{"type":"bash_execution_update","delta":"${delta}"}`;
    expectKind(parseInbound(line), "event");
    const { error } = expectKind(parseInbound(`${line.slice(0, -1)}`), "error");
    assert.equal(error.raw?.length, line.length - 1);
  });

  test("a non-string argument from untyped callers is an error, not a throw", () => {
    for (const value of [undefined, null, 42, {}, Symbol("s")]) {
      const result = parseInbound(value as unknown as string);
      assert.equal(result.kind, "error");
    }
  });
});

describe("parseInbound: properties", () => {
  const kinds = new Set(["response", "event", "ui_request", "unknown", "error"]);

  test("never throws on arbitrary strings", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 200 }), (text) => {
        const result = parseInbound(text);
        assert.ok(kinds.has(result.kind));
        if (result.kind === "error") assert.equal(result.error.raw, text);
      }),
      { numRuns: 2000 },
    );
  });

  test("never throws on arbitrary JSON values", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        assert.ok(kinds.has(parseInbound(JSON.stringify(value)).kind));
      }),
      { numRuns: 1000 },
    );
  });

  test("never throws on objects with a known type and random fields", () => {
    const type = fc.constantFrom(...EVENT_TYPES, "response", "extension_ui_request", "other");
    const record = fc.record({
      type,
      fields: fc.dictionary(
        fc.constantFrom(
          "id",
          "success",
          "command",
          "error",
          "method",
          "message",
          "assistantMessageEvent",
          "messages",
          "toolCallId",
          "delta",
          "steering",
          "followUp",
          "entry",
          "options",
          "__proto__",
        ),
        fc.jsonValue({ maxDepth: 2 }),
      ),
    });
    fc.assert(
      fc.property(record, ({ type, fields }) => {
        const line = JSON.stringify({ ...fields, type });
        const result = parseInbound(line);
        assert.ok(kinds.has(result.kind));
        if (result.kind === "error") {
          assert.equal(result.error.code, ProtocolErrorCode.InvalidShape);
          assert.equal(result.error.raw, line);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
