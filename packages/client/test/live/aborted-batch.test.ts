/**
 * Live, pi 1.x and 0.73.1: an abort while a batch of tool calls runs leaves no call without a
 * result. Two slow bash calls (run in parallel) both end "Command aborted"; in a batch whose first
 * call waits on an approval dialog, 1.6 gives the call that never ran "Operation aborted", where
 * 0.73.1's hook answers "Blocked by user" for it. The client's tool executions all end (none
 * stays running) with the result pi keeps, which is what `<pi-tool-call>` reads as "aborted".
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { ToolResultMessage } from "@pi-kit/protocol";
import { type ModelServer, startModelServer } from "@pi-kit/testing";
import type { ClientEvent, PiClient, RunSettledEvent } from "../../src/index.ts";
import { nextEvent, startPi } from "./live-pi.ts";

let server: ModelServer;
before(async () => {
  server = await startModelServer();
});
after(async () => {
  await server.close();
});

/** Starts `prompt`, waits for `ready`, aborts, and returns the batch's results once settled. */
async function abortBatch(
  client: PiClient,
  prompt: string,
  ready: (e: ClientEvent) => boolean,
): Promise<string[]> {
  const started = nextEvent(client, (e): e is ClientEvent => ready(e));
  const settled = nextEvent(client, (e): e is RunSettledEvent => e.type === "run_settled", 60_000);
  const run = client.prompt(prompt);
  await started;
  await client.abort();
  assert.equal((await settled).aborted, true);
  await run;
  const snapshot = client.session.getSnapshot();
  const results = snapshot.messages
    .filter((m): m is ToolResultMessage => m.role === "toolResult")
    .slice(-2);
  assert.deepEqual(
    [...snapshot.toolExecutions.values()].filter((t) => t.status === "running"),
    [],
    "no tool still runs",
  );
  for (const result of results) {
    assert.equal(result.isError, true);
    assert.equal(snapshot.toolExecutions.get(result.toolCallId)?.status, "error");
  }
  const pis = (await client.getMessages()).filter((m) => m.role === "toolResult").slice(-2);
  assert.deepEqual(results, pis, "the client's results are pi's");
  return results.map((r) => r.content.map((c) => (c.type === "text" ? c.text : "")).join(""));
}

for (const version of ["1", "0.73"] as const) {
  describe(`live pi ${version}: an aborted batch of tool calls`, { timeout: 120_000 }, () => {
    test("every call gets a result: Command aborted, Operation aborted (1.6)", async () => {
      const { client, stop } = await startPi(server, version);
      try {
        const slow = await abortBatch(
          client,
          "[[bash sleep 30]] [[bash sleep 31]]",
          (e) => e.type === "tool_execution_start",
        );
        assert.deepEqual(slow, ["Command aborted", "Command aborted"]);

        const dialog = await abortBatch(
          client,
          "[[bash echo CONFIRM-a]] [[bash echo CONFIRM-b]]",
          (e) => e.type === "extension_ui_request" && e.method === "confirm",
        );
        // The first call's hook sees its dialog cancelled and may block it before pi's own
        // abort check says "Operation aborted" (either comes first); the call that never ran is
        // 1.6's "Operation aborted", and 0.73.1's hook blocks it too.
        const [first, never] = dialog;
        assert.ok(
          first === "Blocked by user" || (version === "1" && first === "Operation aborted"),
        );
        assert.equal(never, version === "1" ? "Operation aborted" : "Blocked by user");
        assert.deepEqual(client.session.getSnapshot().dialogs, [], "no dialog is left open");
      } finally {
        await stop();
      }
    });
  });
}
