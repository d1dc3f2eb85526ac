/**
 * Live: every command that puts pi on another session brings `client.session` there by itself,
 * with one `session_changed`, on pi 1.x and 0.73.1. Nobody calls `resync()`. The events pi 1.6
 * sends from `session_start` handlers after those commands' responses belong to the new session.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import type { AgentMessage, EntryAppendedEvent } from "@pi-kit/protocol";
import { type ModelServer, startModelServer } from "@pi-kit/testing";
import type {
  ClientEvent,
  PiClient,
  PiClientDiagnostic,
  SessionChangedEvent,
} from "../../src/index.ts";
import { onePerTask, startPi, textOf, userText } from "./live-pi.ts";

const sessionStartEntry = fileURLToPath(
  new URL("../fixtures/session-start-entry.ts", import.meta.url),
);

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

    test("what session_start handlers send after the response belongs to the new session", async () => {
      // One record per task, as over a WebSocket: code awaiting a response runs before the
      // records after it, so a late entry_appended meets a client already on the new session.
      const { client, stop } = await startPi(server, version, {
        sessionDir: true,
        extensions: [sessionStartEntry],
        wrap: onePerTask,
      });
      const events: ClientEvent[] = [];
      const diagnostics: PiClientDiagnostic[] = [];
      client.onEvent((e) => events.push(e));
      client.on("diagnostic", (d) => diagnostics.push(d));
      const appended = (): EntryAppendedEvent[] =>
        events.filter((e): e is EntryAppendedEvent => e.type === "entry_appended");
      try {
        await client.promptAndWait("[[text first answer]]");
        await client.promptAndWait("[[text second answer]]");
        const original = client.session.getSnapshot().state?.sessionFile as string;
        const second = (await client.getForkMessages()).find(
          (f) => f.text === "[[text second answer]]",
        );
        assert.ok(second);
        const changes: [string, () => Promise<unknown>][] = [
          ["new", () => client.newSession()],
          ["resume", () => client.switchSession(original)],
          ["fork", () => client.fork(second.entryId)],
          ["fork", () => client.clone()],
        ];
        for (const [reason, change] of changes) {
          const before = appended().length;
          await changeBy(client, change);
          if (version === "0.73") continue;
          // pi 1.6 runs the handler once per change; its entry comes after the response.
          const entry = (
            await new Promise<EntryAppendedEvent>((resolve) => {
              const found = (): EntryAppendedEvent | undefined => appended()[before];
              const now = found();
              if (now !== undefined) return resolve(now);
              const off = client.onEvent(() => {
                const next = found();
                if (next === undefined) return;
                off();
                resolve(next);
              });
            })
          ).entry as { id: string; data?: { reason?: string } };
          assert.equal(entry.data?.reason, reason, "the handler saw the change");
          const { entries, leafId } = await client.getEntries();
          assert.equal(leafId, entry.id, "the entry is the new session's leaf");
          assert.ok(entries.some((e) => e.id === entry.id));
          assert.equal(
            client.session.getSnapshot().lastEntryId,
            entry.id,
            "the client's cursor is in the new session",
          );
          // The next resync reads on from that cursor and agrees with pi.
          await client.session.resync();
          assert.deepEqual(client.session.getSnapshot().messages, await client.getMessages());
          assert.equal(appended().length, before + 1, "one entry per change");
        }
        // 0.73.1 has no entry_appended: its session changes are the ones above, nothing follows.
        if (version === "0.73") assert.equal(appended().length, 0);
        assert.deepEqual(diagnostics, [], "nothing was dropped or reported");
      } finally {
        await stop();
      }
    });
  });
}
