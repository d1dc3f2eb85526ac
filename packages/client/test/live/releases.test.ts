/**
 * Live, on the releases between the two lines (pi 0.87.1 and 1.0.3): what differs from 1.6 and
 * 0.73.1, and only that. Capabilities are detected from what pi sends: `agent_settled` without
 * `aborted` (aborted comes from the last assistant message), dispositions from 0.99 only, the 1.x
 * command set; `message_update` carries deltas only; bash streams its output. The runtime changes
 * nothing in what pi sends, so this runs on the Node leg only.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { type ModelServer, startModelServer } from "@pi-kit/testing";
import { ALL_COMMANDS } from "../../src/client/capabilities.ts";
import { assertStreamsAssemble, LIVE_VERSIONS, nextEvent, startPi, textOf } from "./live-pi.ts";

let server: ModelServer;
before(async () => {
  server = await startModelServer();
});
after(async () => {
  await server.close();
});

for (const release of LIVE_VERSIONS.filter((v) => v === "0.87" || v === "1.0")) {
  const dispositions = release === "1.0";
  describe(`live pi ${release} (between the lines)`, { timeout: 120_000 }, () => {
    test("capabilities, commands and dispositions come from what pi sends", async () => {
      const { client, stop } = await startPi(server, release);
      try {
        const detected = client.capabilities;
        assert.equal(detected.versionLine, "1");
        assert.equal(detected.detected, true);
        assert.equal(detected.commands.size, ALL_COMMANDS.length);
        assert.equal(detected.promptDisposition, undefined, "not known before a prompt");
        const run = await client.promptAndWait("[[text hello there]]");
        assert.deepEqual(run, { disposition: "started", aborted: false });
        assert.equal(client.capabilities.promptDisposition, dispositions);
        assert.equal(client.capabilities.agentSettled, true);
        assert.equal(
          client.capabilities.settledAborted,
          false,
          "agent_settled has no `aborted` before 1.1",
        );
        assert.deepEqual(await client.promptAndWait("/ui status busy"), {
          disposition: "handled",
          aborted: false,
        });
        assert.equal(await client.steer("later"), dispositions ? "queued" : undefined);
        assert.deepEqual(await client.clearQueue(), { steering: ["later"], followUp: [] });
        assert.ok((await client.getAvailableThinkingLevels()).includes("off"));
        assert.ok((await client.getEntries()).entries.length > 0);
        assert.ok((await client.getTree()).tree.length > 0);
      } finally {
        await stop();
      }
    });

    test("an aborted run is reported aborted, from the assistant message's stopReason", async () => {
      const { client, stop } = await startPi(server, release);
      try {
        const settled: boolean[] = [];
        client.on("run_settled", (e) => settled.push(e.aborted));
        const running = client.promptAndWait("[[slow 40ms x100]]");
        await nextEvent(client, (e): e is never => e.type === "message_update");
        await client.abort();
        const result = await running;
        assert.equal(result.aborted, true);
        assert.deepEqual(settled, [true]);
        assert.equal(client.capabilities.settledAborted, false);
        const last = client.session.getSnapshot().messages.at(-1);
        assert.equal(last?.role === "assistant" && last.stopReason, "aborted");
      } finally {
        await stop();
      }
    });

    test("message_update deltas assemble to exactly message_end; bash streams its output", async () => {
      const { client, stop } = await startPi(server, release);
      try {
        const assembled = await assertStreamsAssemble(
          client,
          "[[text streamed words]] [[bash echo tool-output]]",
        );
        assert.ok(assembled >= 2);
        assert.match(textOf(client.session.getSnapshot().messages.at(-1)), /tool-output/);

        const chunks: string[] = [];
        const result = await client.bash("for i in 1 2 3; do echo out$i; sleep 0.05; done", {
          onOutput: (d) => chunks.push(d),
        });
        assert.equal(result.output, "out1\nout2\nout3\n");
        assert.equal(chunks.join(""), result.output);
        assert.equal(client.capabilities.bashStreaming, true);
      } finally {
        await stop();
      }
    });
  });
}
