/**
 * Live chaos: three bridges in cluster mode behind haproxy (the shipped config) on one sessions
 * directory, one redis, real pi 1.x on the scripted model, and the real `PiClient` over the
 * WebSocket transport through haproxy. Owners are killed mid-stream, frozen past their lease,
 * brought back, drained, and cut off from Redis; the client must see a reconnect and then the same
 * transcript, and a session must never have two pis writing it. Leases last 3 s so it all fits in
 * a few minutes (not 2: a loaded 2-core machine can stall a bridge's event loop for a second, and
 * a healthy owner would then fence itself). Node only (the harness spawns the CLI with tsx and
 * reads /proc); the cluster code under test is the same on every runtime, and its units run on
 * all of them.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { after, before, type TestContext, test } from "node:test";
import type { ClientEvent, PiClient } from "@pi-kit/client";
import type { WebSocketTransport } from "@pi-kit/client/ws-node";
import { INTERRUPTED_NOTICE } from "../../src/index.ts";
import { runtime } from "../helpers.ts";
import { type Cluster, type ClusterNode, poll, startCluster } from "./cluster-harness.ts";
import { newestSessionFile, PiAudit } from "./pi-audit.ts";
import { chainProblem, entryIds, fileEntries, freshPiMessages } from "./session-file-checks.ts";

const onNode = runtime === "node";
let cluster: Cluster;

before(async () => {
  if (onNode) cluster = await startCluster({ nodes: 3, leaseTtlMs: 3000, drainTimeoutMs: 5000 });
});
after(async () => {
  await cluster?.close();
});

/** Resolves with the client's next event of `type` that satisfies `accept`. */
function nextEvent<K extends ClientEvent["type"]>(
  client: PiClient,
  type: K,
  accept: (event: Extract<ClientEvent, { type: K }>) => boolean = () => true,
  timeoutMs = 30_000,
): Promise<Extract<ClientEvent, { type: K }>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`no ${type} event in ${timeoutMs} ms`));
    }, timeoutMs);
    const off = client.on(type, (event) => {
      if (!accept(event)) return;
      clearTimeout(timer);
      off();
      resolve(event);
    });
  });
}

/** Resolves once the client's transport is open on a newer socket than now (it reconnected). */
function reopened(client: PiClient): Promise<void> {
  const transport = client.transport as WebSocketTransport;
  const from = transport.state.status === "open" ? transport.state.generation : 0;
  return new Promise((resolve) => {
    const check = (): void => {
      if (transport.state.status !== "open" || transport.state.generation <= from) return;
      transport.removeEventListener("statechange", check);
      resolve();
    };
    transport.addEventListener("statechange", check);
  });
}

/** The interrupted notice, when the client gets it. */
const interruptedNotice = (client: PiClient): Promise<unknown> =>
  nextEvent(
    client,
    "extension_ui_request",
    (e) => e.method === "notify" && "message" in e && e.message === INTERRUPTED_NOTICE,
  );

/**
 * Starts a slow run (without waiting for it) and resolves once its answer streams. By default
 * the answer streams for a minute: it is cut off long before.
 */
async function streamSlowRun(client: PiClient, label: string, slow = "300ms x 200"): Promise<void> {
  const streaming = nextEvent(client, "message_update");
  void client.send({ type: "prompt", message: `${label} [[slow ${slow}]]` }).catch(() => {});
  await streaming;
}

/**
 * Starts every node that is not running (a test that failed midway may leave one down) and waits
 * until haproxy has every node in rotation again: a node that was frozen, or just restarted, stays
 * out for a few health checks, and a test that connects meanwhile has its session hashed to
 * another node than the one it would land on later.
 */
async function restoreNodes(): Promise<void> {
  for (const node of cluster.nodes) if (node.process === undefined) await node.start();
  for (const node of cluster.nodes) await cluster.haproxy.untilState(node.n, "UP");
}

/** Starts `node` again and waits until haproxy has it back in rotation. */
async function startIn(node: ClusterNode): Promise<void> {
  await node.start();
  await cluster.haproxy.untilState(node.n, "UP");
}

/** The `event` entries of a node's current log about `session`. */
function logged(node: ClusterNode, event: string, session: string): Record<string, unknown>[] {
  return (node.process?.stderr() ?? "")
    .split("\n")
    .filter((line) => line.includes(`"event":"${event}"`))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((entry) => entry.session === session);
}

/**
 * Runs a chaos test's body; when it fails, prints every node's log lines about `session` (and the
 * pi audit, if any) as diagnostics, so a failure on a loaded CI machine can be read afterwards.
 */
async function explained(
  t: TestContext,
  session: string,
  body: (audit: (a: PiAudit) => PiAudit) => Promise<void>,
): Promise<void> {
  let audit: PiAudit | undefined;
  try {
    // Every node up and in rotation, whatever the test before left behind.
    await restoreNodes();
    await body((a) => {
      audit = a;
      return a;
    });
  } catch (error) {
    for (const node of cluster.nodes) {
      for (const line of (node.process?.stderr() ?? "").split("\n")) {
        if (line.includes(`"session":"${session}`) || line.includes('"lease_store_reachable"'))
          t.diagnostic(`bridge${node.n}: ${line}`);
      }
    }
    for (const line of cluster.clientStates) {
      if (line.includes(` ${session}`)) t.diagnostic(`client ${line}`);
    }
    for (const sample of audit?.samples ?? []) {
      if (sample.pis.length > 0)
        t.diagnostic(
          `audit ${sample.t.toFixed(0)}: ${sample.pis.map((p) => `${p.pid}${p.state}`).join(" ")}`,
        );
    }
    throw error;
  }
}

/** The file the session's pi writes: the one it resumed, or the newest in its directory. */
function writtenFile(name: string, file: string | undefined): string {
  const written = file ?? newestSessionFile(cluster.sessionsDir, name);
  assert.ok(written, `${name} has a session file`);
  return written;
}

test(
  "chaos: SIGKILL of a session's owner mid-stream, three rounds: the client lands on another node with the same transcript, nothing persisted is lost, and it is told the run was interrupted",
  {
    skip: !onNode,
  },
  (t) =>
    explained(t, "crash", async () => {
      const client = await cluster.connect("crash");
      try {
        await client.promptAndWait("Hello [[text warming up]]");
        await client.promptAndWait("[[bash echo tool-ran]]");
        for (let round = 1; round <= 3; round++) {
          const { node: owner, pi } = await cluster.waitOwner("crash");
          await streamSlowRun(client, `round ${round}`);
          const before = entryIds(writtenFile("crash", pi.file));
          const resynced = nextEvent(client, "session_resynced");
          const notice = interruptedNotice(client);
          await owner.crash();
          await resynced;
          await notice;
          const { node: next, pi: resumed } = await cluster.waitOwner("crash");
          assert.notEqual(next.n, owner.n, `round ${round}: the session moved off the dead node`);
          assert.ok(
            logged(next, "lease_taken_over", "crash").length > 0,
            "took the expired lease over",
          );
          const file = writtenFile("crash", resumed.file);
          const after = entryIds(file);
          assert.deepEqual(
            after.slice(0, before.length),
            before,
            `round ${round}: every entry kept`,
          );
          assert.equal(chainProblem(file), undefined, `round ${round}: one writer`);
          const fresh = await freshPiMessages(cluster.host, file);
          assert.deepEqual(
            client.session.getSnapshot().messages,
            fresh,
            `round ${round}: the transcript is the file's`,
          );
          await cluster.haproxy.untilState(owner.n, "DOWN");
          await startIn(owner);
        }
        // The session still works.
        await client.promptAndWait("[[text still here]]");
      } finally {
        await client.close();
        await restoreNodes();
      }
    }),
);

test(
  "chaos: an owner frozen (SIGSTOP) past its lease is taken over, and when it thaws it never writes the resumed file; never two running pis on the session",
  {
    skip: !onNode,
  },
  (t) =>
    explained(t, "frozen", async (track) => {
      const client = await cluster.connect("frozen");
      let audit: PiAudit | undefined;
      let frozen: { node: ClusterNode; pids: number[] } | undefined;
      try {
        await client.promptAndWait("Hello [[text before the freeze]]");
        const { node: owner, pi: oldPi } = await cluster.waitOwner("frozen");
        audit = track(new PiAudit(() => cluster.pisOf("frozen")));
        // A 3 s answer: the model finishes sending it while the node is frozen, so the old pi's first
        // act when it thaws is to append it, racing its bridge's self-fence: the storage fence must
        // send that append to a stray file.
        await streamSlowRun(client, "frozen run", "100ms x 30");
        const oldFile = writtenFile("frozen", oldPi.file);
        const before = entryIds(oldFile);
        const back = reopened(client);
        const frozenAt = performance.now();
        frozen = { node: owner, pids: owner.freeze() };
        // Nobody drops the client's socket for it: haproxy cuts it when it marks the frozen node
        // down (on-marked-down shutdown-sessions), or the client misses two bridge_pings,
        // whichever comes first. It reconnects through haproxy to a live node, which takes the
        // session over the moment the frozen owner's lease runs out.
        await back;
        await client.getState();
        const answeringMs = performance.now() - frozenAt;
        t.diagnostic(`answering again ${Math.round(answeringMs)} ms after the freeze`);
        // Target: the lease + 2 s (6.0 s measured here with a 3 s lease); the bound leaves a loaded
        // 2-core machine room. Without the keepalive or haproxy's cut the client never moves.
        assert.ok(
          answeringMs < cluster.leaseTtlMs * 5,
          `answering again ${Math.round(answeringMs)} ms after the freeze`,
        );
        const { node: next, pi: newPi } = await cluster.waitOwner(
          "frozen",
          (node) => node !== owner,
        );
        assert.notEqual(next, owner);
        const resumedFile = writtenFile("frozen", newPi.file);
        assert.notEqual(resumedFile, oldFile, "the takeover fenced the file (a new name)");
        // Wake the old pi first, as a VM resuming may run it before its bridge notices anything: it
        // finishes the answer the model sent meanwhile and appends it (give it a few seconds to).
        const [bridgePid, ...rest] = frozen.pids;
        const piThawedAt = performance.now();
        owner.thaw(rest);
        const appended = await poll(
          "a late append",
          () => (existsSync(oldFile) ? true : undefined),
          5000,
        ).catch(() => false);
        const thawedAt = performance.now();
        owner.thaw([bridgePid as number]);
        frozen = undefined;
        // The old bridge finds its lease gone and kills its pi.
        await poll("the old pi to die", () =>
          cluster.pisOf("frozen").some((p) => p.pid === oldPi.pid) ? undefined : true,
        );
        const thawToDeath = performance.now() - thawedAt;
        audit.stop();
        const overlaps = audit.overlaps(
          (s) => s.t >= piThawedAt && s.pis.some((p) => p.pid === oldPi.pid),
        );
        assert.deepEqual(
          overlaps,
          [],
          "never two running pis on the session (but the thawing one)",
        );
        assert.ok(
          thawToDeath < cluster.leaseTtlMs + 2000,
          `old pi killed ${thawToDeath} ms after thaw`,
        );
        // The resumed file is the new pi's alone: every entry from before the freeze, one chain, and
        // nothing of the old run's answer (the old pi finishes it into the stray file, if anywhere).
        const resumed = entryIds(resumedFile);
        assert.deepEqual(resumed.slice(0, before.length), before);
        assert.equal(chainProblem(resumedFile), undefined);
        const afterFreeze = fileEntries(resumedFile).filter((e) => e.id && !before.includes(e.id));
        assert.ok(
          !afterFreeze.some((e) => JSON.stringify(e.message?.content ?? "").includes("tick ")),
          "the frozen run's answer is not in the resumed file",
        );
        if (appended) {
          assert.ok(chainProblem(oldFile), "the late append made a headerless stray file");
          t.diagnostic("the thawed pi appended before its bridge woke: into a stray file");
        } else t.diagnostic("the thawed pi did not append before its bridge woke and killed it");
        // The client carries on on the new owner with the file's transcript.
        await poll("the client on the new owner", async () =>
          (await client.getState()).sessionFile === resumedFile ? true : undefined,
        );
        await client.promptAndWait("[[text after the thaw]]");
        assert.deepEqual(
          client.session.getSnapshot().messages,
          await freshPiMessages(
            cluster.host,
            writtenFile("frozen", cluster.pisOf("frozen")[0]?.file),
          ),
        );
        assert.equal(audit.pids.length, 2, "the old pi and the new one, no other");
      } finally {
        audit?.stop();
        if (frozen) frozen.node.thaw(frozen.pids);
        await client.close();
        await restoreNodes();
      }
    }),
);

test(
  "chaos: a dead node that comes back gets its sessions hashed to it again and forwards them to their owners; no second pi starts",
  {
    skip: !onNode,
  },
  (t) =>
    explained(t, "comeback", async (track) => {
      const client = await cluster.connect("comeback");
      try {
        await client.promptAndWait("Hello [[text first home]]");
        const { node: home } = await cluster.waitOwner("comeback");
        const resynced = nextEvent(client, "session_resynced");
        await home.crash();
        await resynced;
        const { node: owner, pi } = await cluster.waitOwner("comeback", (n) => n !== home);
        const audit = track(new PiAudit(() => cluster.pisOf("comeback")));
        try {
          // Out of rotation while it was dead, back in once it is up: only then does the session
          // hash to it again.
          await cluster.haproxy.untilState(home.n, "DOWN");
          await startIn(home);
          // A new client hashes to the old home again: it must be forwarded, not served there.
          const second = await cluster.connect("comeback");
          try {
            assert.deepEqual(await second.getMessages(), await client.getMessages());
            await (second.transport as WebSocketTransport).takeControl();
            await second.promptAndWait("[[text through the forward]]");
          } finally {
            await second.close();
          }
          const listed = await fetch(`${cluster.haproxy.url}/api/sessions/comeback`, {
            headers: { authorization: `Bearer ${cluster.token}` },
          });
          assert.equal(listed.status, 200);
          await listed.body?.cancel();
          assert.ok(
            logged(home, "forwarded", "comeback").some(
              (f) => f.kind === "websocket" && f.outcome === "ok",
            ),
            "the home node forwarded the socket to the owner",
          );
        } finally {
          audit.stop();
        }
        assert.deepEqual(audit.pids, [pi.pid], "only the owner's pi, all along");
        assert.equal(cluster.ownerOf("comeback"), owner);
      } finally {
        await client.close();
        await restoreNodes();
      }
    }),
);

test(
  "chaos: SIGTERM drains a node: its running turn settles within the drain timeout, it exits 0, and its sessions move at once (released, not expired)",
  {
    skip: !onNode,
  },
  (t) =>
    explained(t, "drain", async () => {
      const client = await cluster.connect("drain");
      try {
        await client.promptAndWait("Hello [[text before the drain]]");
        const { node: owner } = await cluster.waitOwner("drain");
        // A turn of about 2 s, well inside the 5 s drain timeout.
        const streaming = nextEvent(client, "message_update");
        const settled = nextEvent(client, "run_settled");
        void client.send({ type: "prompt", message: "Finish this [[slow 100ms x 20]]" });
        await streaming;
        const resynced = nextEvent(client, "session_resynced");
        const termAt = performance.now();
        const exit = await owner.terminate();
        const drainMs = performance.now() - termAt;
        assert.equal(exit.code, 0, "a drain exits 0");
        assert.ok(drainMs < cluster.drainTimeoutMs + 3000, `drained in ${drainMs} ms`);
        assert.equal((await settled).aborted, false, "the running turn was not interrupted");
        await resynced;
        const { node: next, pi } = await cluster.waitOwner("drain", (n) => n !== owner);
        // Released, not expired: the next owner acquired it from the drained node, with no fence.
        const acquired = logged(next, "lease_acquired", "drain");
        assert.ok(acquired.length > 0, "the next node acquired the released lease");
        assert.deepEqual(
          logged(next, "lease_taken_over", "drain"),
          [],
          "no takeover of an expired lease",
        );
        assert.equal(
          pi.file?.includes(".fence-") ?? false,
          false,
          "a released lease needs no storage fence",
        );
        const messages = client.session.getSnapshot().messages;
        assert.match(JSON.stringify(messages.at(-1)), /tick 20/, "the turn's answer is whole");
      } finally {
        await client.close();
        await restoreNodes();
      }
    }),
);

test(
  "chaos: Redis stops: serving nodes fence themselves within the lease (pi killed, /readyz 503) and are ready again when it is back",
  {
    skip: !onNode,
  },
  (t) =>
    explained(t, "cut-", async () => {
      const names = ["cut-a", "cut-b", "cut-c"];
      const clients = await Promise.all(names.map((name) => cluster.connect(name)));
      try {
        await Promise.all(clients.map((c, i) => c.promptAndWait(`Hello ${i} [[text serving]]`)));
        for (const name of names) await cluster.waitOwner(name);
        const pausedAt = performance.now();
        cluster.redis.pause();
        // Fenced sockets close with 1012; the clients come back once a node can claim again.
        const back = clients.map((c) => nextEvent(c, "session_resynced", () => true, 60_000));
        try {
          await poll("every session's pi gone", () =>
            names.every((name) => cluster.pisOf(name).length === 0) ? true : undefined,
          );
          const fencedMs = performance.now() - pausedAt;
          assert.ok(fencedMs <= cluster.leaseTtlMs, `fenced ${fencedMs} ms after Redis stopped`);
          for (const node of cluster.nodes) assert.equal(await node.readyStatus(), 503);
        } finally {
          cluster.redis.resume();
        }
        await poll("every node ready again", async () => {
          const statuses = await Promise.all(cluster.nodes.map((node) => node.readyStatus()));
          return statuses.every((s) => s === 200) ? true : undefined;
        });
        // The clients reconnect and their sessions resume.
        await Promise.all(back);
        await Promise.all(clients.map((c) => c.promptAndWait("[[text back]]")));
      } finally {
        await Promise.all(clients.map((c) => c.close()));
      }
    }),
);
