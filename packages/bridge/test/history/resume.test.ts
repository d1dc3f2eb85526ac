/**
 * Live, real pi (1.x and 0.73.1): a conversation outlives its pi and its bridge. After the grace
 * period, a SIGKILL of pi, a SIGKILL of the bridge and a restart, and a Ctrl-C (SIGINT) of the
 * bridge and a restart, the session reopens with the same messages, entry tree, name, model and
 * thinking level, and a client's transcript equal to the one it had, message by message.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import process from "node:process";
import { test } from "node:test";
import type { PiClient, SessionSummary } from "@pi-kit/client";
import { PROVIDER, piCommand, REASONING_MODEL, startModelServer } from "@pi-kit/testing";
import { generateToken } from "../../src/index.ts";
import { type BridgeProcess, spawnBridge } from "../bridge-process.ts";
import { connectClient, lineVersions } from "../helpers.ts";

/** What a user sees of a session, and what pi persisted of it. */
interface Observed {
  readonly messages: unknown;
  readonly transcript: unknown;
  readonly model: string;
  readonly thinkingLevel: string;
  readonly sessionName: string | undefined;
  readonly sessionId: string | undefined;
  readonly tree: unknown;
}

async function observe(client: PiClient, version: "1" | "0.73"): Promise<Observed> {
  const state = await client.getState();
  return {
    messages: await client.getMessages(),
    transcript: client.session.getSnapshot().messages,
    model: `${state.model?.provider}/${state.model?.id}`,
    thinkingLevel: state.thinkingLevel,
    sessionName: state.sessionName,
    sessionId: state.sessionId,
    // The entry tree is 1.x only.
    tree: version === "1" ? await client.getTree() : undefined,
  };
}

/** Opens the session in a new client (which resumes it) and checks it is what it was. */
async function expectSame(
  bridge: BridgeProcess,
  version: "1" | "0.73",
  before: Observed,
  step: string,
): Promise<void> {
  const client = await connectClient(bridge.url, bridge.token, "talk");
  try {
    const after = await observe(client, version);
    assert.deepEqual(after.messages, before.messages, `${step}: get_messages`);
    assert.deepEqual(after.transcript, before.transcript, `${step}: the client's transcript`);
    assert.deepEqual(after, before, step);
  } finally {
    await client.close();
  }
}

async function summary(bridge: BridgeProcess, name: string): Promise<SessionSummary> {
  const response = await fetch(`${bridge.url}/api/sessions/${name}`, {
    headers: { authorization: `Bearer ${bridge.token}` },
  });
  assert.equal(response.status, 200);
  return ((await response.json()) as { session: SessionSummary }).session;
}

/** Waits until the session's summary satisfies `ready` (the bridge reports state changes, not events). */
async function until(
  bridge: BridgeProcess,
  ready: (s: SessionSummary) => boolean,
  timeoutMs = 20_000,
): Promise<void> {
  const end = performance.now() + timeoutMs;
  while (!ready(await summary(bridge, "talk"))) {
    if (performance.now() > end) throw new Error("the session did not get there in time");
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** pi's pid for session `name`, from the bridge's log. */
function piPid(bridge: BridgeProcess, name: string): number {
  const created = bridge
    .stderr()
    .split("\n")
    .filter((line) => line.includes('"event":"session_created"'))
    .map((line) => JSON.parse(line) as { session: string; pid: number })
    .filter((entry) => entry.session === name);
  const pid = created.at(-1)?.pid;
  assert.equal(typeof pid, "number");
  return pid as number;
}

for (const version of lineVersions) {
  test(`resume, pi ${version}: after the grace period, a SIGKILL of pi, and a SIGKILL and a SIGINT of the bridge, nothing is missing`, async () => {
    const model = await startModelServer();
    const pi = piCommand({ version, baseUrl: model.baseUrl });
    const sessionsDir = join(pi.tempRoot, "sessions");
    const token = generateToken();
    const start = () => spawnBridge({ pi, sessionsDir, token, graceMs: 500 });
    let bridge = await start();
    try {
      const client = await connectClient(bridge.url, token, "talk");
      await client.promptAndWait("Hello [[text hi there]]");
      await client.promptAndWait("[[bash echo resumed-ok]]");
      await client.setModel(PROVIDER, REASONING_MODEL);
      await client.setThinkingLevel("high");
      await client.promptAndWait("[[think let me see]] [[text thought it through]]");
      await client.setSessionName("Resume test");
      const before = await observe(client, version);
      assert.equal(before.model, `${PROVIDER}/${REASONING_MODEL}`);
      assert.equal(before.thinkingLevel, "high");
      assert.equal(before.sessionName, "Resume test");
      assert.ok((before.messages as unknown[]).length >= 7, "three prompts, one with a tool call");
      await client.close();

      // Nobody comes back within the grace period: pi is stopped, then the session reopens.
      await until(bridge, (s) => s.state === "stopped");
      await expectSame(bridge, version, before, "after the grace period");

      // pi dies: the attached client learns it (4000), and the next connection resumes.
      const watcher = await connectClient(bridge.url, token, "talk");
      const closed = watcher.closed;
      process.kill(piPid(bridge, "talk"), "SIGKILL");
      assert.equal((await closed).reason, "exit");
      await expectSame(bridge, version, before, "after a SIGKILL of pi");

      // The bridge dies (its pi sees stdin close and exits by itself); a new bridge resumes.
      bridge.kill("SIGKILL");
      await bridge.exited;
      bridge = await start();
      await expectSame(bridge, version, before, "after a SIGKILL of the bridge");

      // Ctrl-C: the bridge stops pi gracefully and exits. (Its log says so on every runtime; a
      // Deno parent reports any child it sent a signal to as ended by that signal.)
      bridge.kill("SIGINT");
      await bridge.exited;
      assert.match(bridge.stderr(), /"event":"bridge_closed"/);
      bridge = await start();
      await expectSame(bridge, version, before, "after a SIGINT of the bridge");
      const listed = await summary(bridge, "talk");
      assert.equal(listed.title, "Resume test");
      assert.equal(listed.damaged, undefined);
      assert.equal(listed.interrupted, undefined);
    } finally {
      bridge.kill("SIGKILL");
      await bridge.exited;
      await model.close();
      pi.dispose();
    }
  });
}
