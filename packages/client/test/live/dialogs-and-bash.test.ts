/**
 * Live, issue 11: the manual dialog mode (defect 5); dialogs an extension gave up on close by
 * themselves (defect 8); a direct bash call's message is in the live transcript as pi has it
 * (defect 7). On every release of the matrix.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { AgentMessage } from "@pi-kit/protocol";
import { type ModelServer, startModelServer } from "@pi-kit/testing";
import type { PiClient } from "../../src/index.ts";
import { LIVE_VERSIONS, probeResult, startPi, whenSession } from "./live-pi.ts";

let server: ModelServer;
before(async () => {
  server = await startModelServer();
});
after(async () => {
  await server.close();
});

const openDialogs = (client: PiClient): string[] =>
  client.session.getSnapshot().dialogs.map((d) => d.request.title);

/** The transcript with bash messages' timestamps left out (pi 0.73.x gives no cheap way to read pi's). */
function withoutBashClock(messages: readonly AgentMessage[]): unknown[] {
  return messages.map((m) => (m.role === "bashExecution" ? { ...m, timestamp: 0 } : m));
}

for (const version of LIVE_VERSIONS) {
  describe(`live pi ${version}: dialogs and bash`, { timeout: 120_000 }, () => {
    test("manual dialogs wait for ui.answer or their timeout; ones an extension gave up on close by themselves", async () => {
      const { client, stop } = await startPi(server, version, { dialogHandler: "manual" });
      try {
        // Answered from the UI through client.ui.
        const confirmed = probeResult(client, "confirm");
        const prompt = client.prompt("/ui confirm");
        await whenSession(client, () => openDialogs(client).includes("Sure?"));
        const [dialog] = client.session.getSnapshot().dialogs;
        assert.equal(client.ui.answer(dialog?.request.id ?? "", true), true);
        await prompt;
        assert.equal(await confirmed, "true");

        // Its own timeout closes it (pi answers itself and says nothing).
        const timedOut = probeResult(client, "timeout");
        await client.prompt("/ui timeout 300");
        assert.equal(await timedOut, "false");
        await whenSession(client, () => openDialogs(client).length === 0);

        // The extension cancels it by its own signal: it closes when the command is over.
        const dismissed = probeResult(client, "abort");
        await client.prompt("/ui abort 300");
        assert.equal(await dismissed, "false");
        assert.deepEqual(openDialogs(client), []);

        // Opened after the command returned, dismissed by the extension: closes at the session change.
        const later = probeResult(client, "later");
        await client.prompt("/ui later 200");
        await whenSession(client, () => openDialogs(client).includes("Later?"));
        assert.equal(await later, "false");
        assert.deepEqual(openDialogs(client), ["Later?"], "pi never says it is over");
        await client.newSession();
        assert.deepEqual(openDialogs(client), []);
      } finally {
        await stop();
      }
    });

    test("a direct bash() is in the live transcript where pi has it, idle and during a run", async () => {
      const { client, stop } = await startPi(server, version);
      const exact = version !== "0.73";
      try {
        await client.promptAndWait("[[text hello]]");
        const result = await client.bash("echo idle");
        assert.equal(result.output, "idle\n");
        const live = client.session.getSnapshot().messages;
        assert.equal(live.at(-1)?.role, "bashExecution");
        if (exact) assert.deepEqual(live, await client.getMessages());
        else assert.deepEqual(withoutBashClock(live), withoutBashClock(await client.getMessages()));

        // During a run pi adds it when the run ends (0.73.x: when the next prompt starts).
        const running = client.promptAndWait("[[slow 30ms x10]]");
        await whenSession(client, () => client.session.getSnapshot().isStreaming);
        await client.bash("echo during");
        await running;
        if (exact) {
          await whenSession(
            client,
            () => client.session.getSnapshot().messages.at(-1)?.role === "bashExecution",
          );
          // pi's own copy replaces the client's once the entries since the cursor are read.
          const pi = await client.getMessages();
          await whenSession(
            client,
            () => JSON.stringify(client.session.getSnapshot().messages) === JSON.stringify(pi),
          );
        } else {
          await client.promptAndWait("[[text next]]");
          assert.deepEqual(
            withoutBashClock(client.session.getSnapshot().messages),
            withoutBashClock(await client.getMessages()),
          );
        }
        // A resync shows the same list, exactly, on every release.
        const shown = client.session.getSnapshot().messages.length;
        await client.session.resync();
        assert.deepEqual(client.session.getSnapshot().messages, await client.getMessages());
        assert.equal(client.session.getSnapshot().messages.length, shown, "nothing doubled");
      } finally {
        await stop();
      }
    });
  });
}
