/**
 * Live, real pi (0.73.1 and 1.x): a fork through the bridge leaves the conversation as it was in
 * the history, under the same entry, and a client can go back to it by its file name.
 */
import assert from "node:assert/strict";
import { basename } from "node:path";
import { test } from "node:test";
import { BridgeSessionHistory } from "@pi-kit/client";
import { connect, lineVersions, type Rec, startBridge } from "../helpers.ts";

for (const version of lineVersions) {
  test(`fork, pi ${version}: the history lists the origin and the fork; switching back by file name works`, async () => {
    const bridge = await startBridge({ version });
    const history = new BridgeSessionHistory({ baseUrl: bridge.url, token: bridge.token });
    try {
      const client = await connect(bridge, "forks");
      const chat = async (message: string) => {
        const from = client.records.length;
        assert.equal((await client.request({ type: "prompt", message }, 30_000)).success, true);
        await client.waitFor((r) => r.type === "agent_end", 30_000, from);
      };
      const state = async () => (await client.request({ type: "get_state" })).data as Rec;
      await chat("Name three rivers");
      await chat("Name three mountains");
      await chat("Name three lakes");
      const origin = basename((await state()).sessionFile as string);
      const forkable = (await client.request({ type: "get_fork_messages" })).data as {
        messages: { entryId: string; text: string }[];
      };
      const second = forkable.messages.find((m) => m.text === "Name three mountains");
      assert.ok(second, "the second question can be forked from");
      const forked = await client.request({ type: "fork", entryId: second.entryId }, 20_000);
      assert.equal(forked.success, true);
      // pi 0.73 writes a fork with no answer yet only with its next message.
      await chat("Name three seas");
      const fork = basename((await state()).sessionFile as string);
      assert.notEqual(fork, origin);

      const summary = await history.get("forks");
      assert.equal(summary?.title, "Name three rivers (fork)");
      assert.deepEqual(
        summary?.forks?.map((f) => [f.file, f.title, f.current, f.forkedFrom]),
        [
          [origin, "Name three rivers", false, undefined],
          [fork, "Name three rivers (fork)", true, origin],
        ],
      );
      assert.deepEqual(
        (await history.list()).sessions.map((s) => s.name),
        ["forks"],
        "one conversation, its files under it",
      );

      // Back to the origin by its file name (the bridge keeps the path in the session's directory).
      const switched = await client.request(
        { type: "switch_session", sessionPath: origin },
        20_000,
      );
      assert.equal(switched.success, true);
      const messages = (await client.request({ type: "get_messages" })).data as {
        messages: Rec[];
      };
      assert.match(JSON.stringify(messages.messages.at(-1)?.content), /Name three lakes/);
      await history.stop("forks");
      const after = await history.get("forks");
      assert.equal(after?.title, "Name three rivers", "the origin is the file pi continues");
      assert.deepEqual(
        after?.forks?.map((f) => f.current),
        [true, false],
      );
      await client.close();
    } finally {
      await bridge.dispose();
    }
  });

  test(`fork at the first message, pi ${version}: the empty fork is titled after its origin, which stays listed`, async () => {
    const bridge = await startBridge({ version });
    const history = new BridgeSessionHistory({ baseUrl: bridge.url, token: bridge.token });
    try {
      const client = await connect(bridge, "solo");
      const from = client.records.length;
      const prompt = await client.request({ type: "prompt", message: "Plan a picnic" }, 30_000);
      assert.equal(prompt.success, true);
      await client.waitFor((r) => r.type === "agent_end", 30_000, from);
      const origin = (await history.get("solo"))?.forks;
      assert.equal(origin, undefined, "one file so far");
      const forkable = (await client.request({ type: "get_fork_messages" })).data as {
        messages: { entryId: string }[];
      };
      const first = forkable.messages[0];
      assert.ok(first);
      assert.equal(
        (await client.request({ type: "fork", entryId: first.entryId }, 20_000)).success,
        true,
      );
      // The bridge learns the new file from pi (get_state) after relaying the fork's answer.
      await client.request({ type: "get_state" });
      const summary = await history.get("solo");
      assert.equal(summary?.title, "Plan a picnic (fork)");
      assert.deepEqual(
        summary?.forks?.map((f) => [f.title, f.current]),
        [
          ["Plan a picnic", false],
          ["Plan a picnic (fork)", true],
        ],
      );
      assert.equal(summary?.forks?.[1]?.messageCount, 0);
      await client.close();
    } finally {
      await bridge.dispose();
    }
  });
}
