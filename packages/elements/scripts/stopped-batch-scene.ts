/**
 * The "stopped-batch" scene for screenshots.ts: pi 1.6's diagnostics and stopped tools in the
 * chat. A batch of tool calls the user stopped (the calls read "aborted", a real failure "failed"),
 * and two notices from pi's stderr: an extension that failed to load when the session was
 * replaced, a model pi could not restore.
 */
import { PiClient } from "@pi-kit/client";
import type { AgentMessage } from "@pi-kit/protocol";
import { FakePi } from "../../client/test/support/fake-pi.ts";
import { answerOf, toolCallOf } from "../test/support/helpers.ts";

const result = (id: string, command: string, text: string): Record<string, unknown>[] => {
  const message = {
    role: "toolResult",
    toolCallId: id,
    toolName: "bash",
    content: [{ type: "text", text }],
    isError: true,
    timestamp: 0,
  };
  return [
    { type: "tool_execution_start", toolCallId: id, toolName: "bash", args: { command } },
    { type: "message_start", message },
    { type: "message_end", message },
  ];
};

/** Draws the scene into `stage` and returns when it is on screen. */
export async function drawStoppedBatchScene(
  stage: HTMLElement,
  settle: () => Promise<void>,
): Promise<void> {
  const pi = new FakePi("1");
  const listeners = new Set<(text: string) => void>();
  const transport = Object.assign({}, pi.transport, {
    onPiStderr(listener: (text: string) => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  });
  const client = new PiClient(transport, { capabilities: "1" });
  await client.getState();
  const chat = document.createElement("pi-chat");
  chat.style.height = `${Math.min(620, window.innerHeight - 40)}px`;
  chat.client = client;
  stage.style.padding = "0";
  stage.append(chat);
  await settle();
  const ask: AgentMessage = {
    role: "user",
    content: "Run the test suites and the release build",
    timestamp: 0,
  };
  const batch = answerOf(
    [
      toolCallOf("bash", { command: "npm test -w packages/client" }, "a"),
      toolCallOf("bash", { command: "npm test -w packages/bridge" }, "b"),
      toolCallOf("bash", { command: "make release" }, "c"),
    ],
    { stopReason: "toolUse" },
  );
  const stopped = answerOf([], { stopReason: "aborted", errorMessage: "Request was aborted" });
  for (const record of [
    { type: "message_start", message: ask },
    { type: "message_end", message: ask },
    { type: "message_start", message: batch },
    { type: "message_end", message: batch },
    ...result("a", "npm test -w packages/client", "> 212 passing\n> 3 pending\n\nCommand aborted"),
    ...result("b", "npm test -w packages/bridge", "Operation aborted"),
    ...result("c", "make release", "make: *** No rule to make target 'release'.  Stop."),
    { type: "message_start", message: stopped },
    { type: "message_end", message: stopped },
  ])
    pi.push(record);
  for (const text of [
    'Error: Failed to load extension "/srv/pi/extensions/gate.ts": Failed to load extension: gate.json is missing',
    "Warning: Could not restore model anthropic/claude-3-opus",
  ])
    for (const listener of listeners) listener(text);
  await settle();
}
