/**
 * Conversations recorded from real pi 1.6.0 (the protocol package's test fixtures, recorded with
 * `recordTransport`), and one scripted from those shapes: an edit with pi's patch.
 */
import { parseTranscript, type TranscriptEntry } from "@pi-kit/protocol";
import dialog from "../../../../packages/protocol/test/fixtures/pi-1.6.0/extension-dialog.jsonl?raw";
import text from "../../../../packages/protocol/test/fixtures/pi-1.6.0/text.jsonl?raw";
import thinking from "../../../../packages/protocol/test/fixtures/pi-1.6.0/thinking.jsonl?raw";

export const THINKING = parseTranscript(thinking);
export const TEXT = parseTranscript(text);

/** The recorded dialog conversation up to pi's first question, which stays unanswered. */
export const DIALOG_WAITING = ((): TranscriptEntry[] => {
  const entries = parseTranscript(dialog);
  const asked = entries.findIndex((e) => e.record.includes('"extension_ui_request"'));
  return entries.slice(0, asked + 1);
})();

const PATCH = `--- src/login.ts
+++ src/login.ts
@@ -12,7 +12,8 @@
 export async function login(user: string, password: string): Promise<Session> {
   const response = await fetch("/api/login", {
     method: "POST",
+    credentials: "same-origin",
     body: JSON.stringify({ user, password }),
   });
-  if (response.status !== 200) throw new Error("login failed");
+  if (!response.ok) throw new LoginError(response.status);
   return (await response.json()) as Session;
`;

const usage = {
  input: 1200,
  output: 80,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 1280,
  cost: { input: 0.0036, output: 0.0012, cacheRead: 0, cacheWrite: 0, total: 0.0048 },
};
const assistant = (content: unknown[], stopReason: string): object => ({
  role: "assistant",
  content,
  api: "anthropic-messages",
  provider: "anthropic",
  model: "claude-sonnet-4-5",
  usage,
  stopReason,
  timestamp: 1796014973000,
});
const edit = {
  type: "toolCall",
  id: "call_1",
  name: "edit",
  arguments: {
    path: "src/login.ts",
    edits: [
      { oldText: 'method: "POST",', newText: 'method: "POST",\n    credentials: "same-origin",' },
    ],
  },
};
const result = {
  content: [{ type: "text", text: "Successfully replaced 2 block(s) in src/login.ts." }],
  details: { patch: PATCH },
};
const events: object[] = [
  { type: "agent_start" },
  ...[
    {
      role: "user",
      content: [{ type: "text", text: "The login cookie is not sent. Fix it." }],
      timestamp: 1796014972000,
    },
    assistant(
      [
        {
          type: "text",
          text: "The request leaves out credentials; I will add them and throw a typed error.",
        },
        edit,
      ],
      "toolUse",
    ),
  ].flatMap((message) => [
    { type: "message_start", message },
    { type: "message_end", message },
  ]),
  { type: "tool_execution_start", toolCallId: "call_1", toolName: "edit", args: edit.arguments },
  { type: "tool_execution_end", toolCallId: "call_1", toolName: "edit", result, isError: false },
  ...[
    {
      role: "toolResult",
      toolCallId: "call_1",
      toolName: "edit",
      ...result,
      isError: false,
      timestamp: 1796014973100,
    },
    assistant(
      [
        {
          type: "text",
          text: 'Done: `fetch` now sends the cookie (`credentials: "same-origin"`), and a refused login throws `LoginError` with its status.',
        },
      ],
      "stop",
    ),
  ].flatMap((message) => [
    { type: "message_start", message },
    { type: "message_end", message },
  ]),
  { type: "agent_end", messages: [] },
  { type: "agent_settled" },
];

/** A run with an `edit` tool call whose result carries pi's unified patch. */
export const TOOL_DIFF: TranscriptEntry[] = events.map((event, i) => ({
  t: i,
  dir: "in",
  record: JSON.stringify(event),
}));
