/**
 * Live: every command that puts pi on another session brings `client.session` there by itself,
 * with one `session_changed`, on pi 1.x and 0.73.1. Nobody calls `resync()`.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { AgentMessage } from "@pi-kit/protocol";
import { type ModelServer, startModelServer } from "@pi-kit/testing";
import type { PiClient, SessionChangedEvent } from "../../src/index.ts";
import { startPi, textOf, userText } from "./live-pi.ts";

let server: ModelServer;
before(async () => {
  server = await startModelServer();
});
after(async () => {
  await server.close();
});

/** Runs `change` and returns the one `session_changed` it caused, checking the transcript equals pi's. */
async function changeBy(
  client: PiClient,
  change: () => Promise<unknown>,
): Promise<{ event: SessionChangedEvent; messages: readonly AgentMessage[] }> {
  const events: SessionChangedEvent[] = [];
  const off = client.on("session_changed", (e) => events.push(e));
  try {
    await change();
  } finally {
    off();
  }
  assert.equal(events.length, 1, "exactly one session_changed");
  const messages = client.session.getSnapshot().messages;
  assert.deepEqual(
    messages,
    await client.getMessages(),
    "the transcript is pi's, without a resync",
  );
  return { event: events[0] as SessionChangedEvent, messages };
}

const texts = (messages: readonly AgentMessage[]): string[] =>
  messages.map((m) => userText(m) || textOf(m)).filter((t) => t !== "");

for (const version of ["1", "0.73"] as const) {
  describe(`live pi ${version}: session changes`, { timeout: 120_000 }, () => {
    test("fork, clone, new_session and switch_session each update client.session", async () => {
      const { client, stop } = await startPi(server, version, { sessionDir: true });
      try {
        await client.promptAndWait("[[text first answer]]");
        await client.promptAndWait("[[text second answer]]");
        const original = client.session.getSnapshot().state?.sessionFile;
        assert.equal(typeof original, "string");
        assert.deepEqual(texts(client.session.getSnapshot().messages), [
          "[[text first answer]]",
          "first answer",
          "[[text second answer]]",
          "second answer",
        ]);

        // A fork at the second prompt shows only the branch before it.
        const forks = await client.getForkMessages();
        const second = forks.find((f) => f.text === "[[text second answer]]");
        assert.ok(second, "the second prompt can be forked from");
        const fork = await changeBy(client, () => client.fork(second.entryId));
        assert.equal(fork.event.reason, "fork");
        assert.deepEqual(texts(fork.messages), ["[[text first answer]]", "first answer"]);
        assert.notEqual(fork.event.sessionFile, original);
        assert.equal(fork.event.sessionId, client.session.getSnapshot().state?.sessionId);

        // A clone copies the branch into another session: the same transcript, another file.
        const clone = await changeBy(client, () => client.clone());
        assert.equal(clone.event.reason, "clone");
        assert.deepEqual(texts(clone.messages), ["[[text first answer]]", "first answer"]);
        assert.notEqual(clone.event.sessionFile, fork.event.sessionFile);

        // A new session has none of the old conversation.
        const fresh = await changeBy(client, () => client.newSession());
        assert.equal(fresh.event.reason, "new_session");
        assert.deepEqual(texts(fresh.messages), []);
        assert.notEqual(fresh.event.sessionId, clone.event.sessionId);

        // Switching back to the first file shows the whole first conversation again.
        const back = await changeBy(client, () => client.switchSession(original as string));
        assert.equal(back.event.reason, "switch_session");
        assert.equal(back.event.sessionFile, original);
        assert.deepEqual(texts(back.messages), [
          "[[text first answer]]",
          "first answer",
          "[[text second answer]]",
          "second answer",
        ]);
      } finally {
        await stop();
      }
    });
  });
}
