/**
 * Live, issue 11: a cancelled call never reaches pi (defect 1); a wait after a prompt waits for
 * its run however the records arrive (defect 3); closing, or pi exiting, mid-call leaves nothing
 * unhandled and names the call the user made (defects 2 and 9). On every release of the matrix.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { type ModelServer, startModelServer } from "@pi-kit/testing";
import { type PiClientDiagnostic, PiClientError } from "../../src/index.ts";
import { closedDuring } from "../support/client-errors.ts";
import { LIVE_VERSIONS, nextEvent, onePerTask, startPi, textOf, userText } from "./live-pi.ts";

let server: ModelServer;
before(async () => {
  server = await startModelServer();
});
after(async () => {
  await server.close();
});

const cancelled = (e: unknown): boolean => e instanceof PiClientError && e.code === "cancelled";

for (const version of LIVE_VERSIONS) {
  describe(`live pi ${version}: calls and waits`, { timeout: 120_000 }, () => {
    test("a call whose signal already fired never reaches pi", async () => {
      const { client, workspace, stop } = await startPi(server, version);
      try {
        const diagnostics: PiClientDiagnostic[] = [];
        client.on("diagnostic", (d) => diagnostics.push(d));
        const signal = AbortSignal.abort();
        await assert.rejects(client.bash("echo ran > marker", { signal }), cancelled);
        await assert.rejects(client.prompt("[[text should never run]]", { signal }), cancelled);
        await assert.rejects(client.promptAndWait("[[text nor this]]", { signal }), cancelled);
        await assert.rejects(client.setSessionName("never", { signal }), cancelled);
        // One round trip later anything pi had been sent would have been answered.
        const state = await client.getState();
        assert.equal(existsSync(join(workspace, "marker")), false, "the bash never ran");
        assert.deepEqual(
          (await client.getMessages()).filter((m) => m.role === "user"),
          [],
        );
        assert.equal(state.sessionName, undefined);
        assert.deepEqual(diagnostics, [], "no late or unmatched answer");
      } finally {
        await stop();
      }
    });

    test("await prompt(); await waitForSettled() waits for that run, one record per task", async () => {
      const { client, stop } = await startPi(server, version, { wrap: onePerTask });
      try {
        await client.prompt("[[slow 20ms x8]]");
        const outcome = await client.waitForSettled();
        assert.deepEqual(outcome, { aborted: false });
        const last = client.session.getSnapshot().messages.at(-1);
        assert.match(textOf(last), /tick 8/, "the run is over: its answer is in");
        assert.equal(client.isRunning, false);

        // An aborted run: the wait reports it, whichever way pi says so.
        await client.prompt("[[slow 40ms x100]]");
        await nextEvent(client, (e): e is never => e.type === "message_update");
        const aborted = client.waitForSettled();
        await client.abort();
        assert.deepEqual(await aborted, { aborted: true });
        assert.deepEqual(
          client.session
            .getSnapshot()
            .messages.filter((m) => m.role === "user")
            .map(userText),
          ["[[slow 20ms x8]]", "[[slow 40ms x100]]"],
        );
      } finally {
        await stop();
      }
    });

    test("close() while promptAndWait waits on an open dialog rejects it, naming promptAndWait", async () => {
      const { client, stop } = await startPi(server, version, { dialogHandler: "manual" });
      try {
        const waiting = client.promptAndWait("/ui confirm");
        await nextEvent(
          client,
          (e): e is never => e.type === "extension_ui_request" && e.method === "confirm",
        );
        await client.close();
        await assert.rejects(waiting, closedDuring("promptAndWait"));
        // The tripwire (test-support/tripwire.ts) fails this test if anything was left unhandled.
      } finally {
        await stop();
      }
    });

    test("an extension that shuts pi down during promptAndWait: handled, or an error that names promptAndWait", async () => {
      const { client, stop } = await startPi(server, version);
      try {
        const outcome = await client.promptAndWait("/ui exit").then(
          (result) => result,
          (error: unknown) => error,
        );
        if (outcome instanceof Error) {
          assert.ok(outcome instanceof PiClientError);
          assert.equal(outcome.code, "transport_closed");
          assert.match(
            outcome.message,
            /^promptAndWait failed: pi transport closed \(exit, exit code 0\)/,
          );
          assert.doesNotMatch(outcome.message, /get_state/);
        } else {
          // pi said `handled` before it went (dispositions, 0.99 on).
          assert.deepEqual(outcome, { disposition: "handled", aborted: false });
        }
        const closed = await client.closed;
        assert.equal(closed.exitCode, 0);
      } finally {
        await stop();
      }
    });
  });
}
