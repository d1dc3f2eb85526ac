/**
 * Live: bad input to `pi-kit-acp` gets a JSON-RPC error with a clear message and never ends the
 * process: malformed JSON, an unknown method, a prompt to an unknown session, a session on a
 * bridge that refuses the token. Spoken on the raw stdio, line by line.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { after, before, describe, test } from "node:test";
import {
  type AgentProcess,
  startAgent,
  startTestBridge,
  type TestBridge,
} from "./support/acp-harness.ts";

interface Reply {
  id?: unknown;
  result?: unknown;
  error?: { code: number; message: string };
}

/** The agent's stdout as JSON-RPC messages, waited on one by one. */
function replies(agent: AgentProcess): (match: (reply: Reply) => boolean) => Promise<Reply> {
  const seen: Reply[] = [];
  const waiters = new Set<() => void>();
  createInterface({ input: agent.child.stdout }).on("line", (line) => {
    seen.push(JSON.parse(line) as Reply);
    for (const wake of [...waiters]) wake();
  });
  return (match) =>
    new Promise((resolve) => {
      const check = (): boolean => {
        const found = seen.find(match);
        if (found !== undefined) {
          waiters.delete(check);
          resolve(found);
        }
        return found !== undefined;
      };
      if (!check()) waiters.add(check);
    });
}

const send = (agent: AgentProcess, message: unknown): void => {
  agent.child.stdin.write(`${typeof message === "string" ? message : JSON.stringify(message)}\n`);
};

const initialize = (id: number) => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: { protocolVersion: 1, clientCapabilities: {} },
});

let bridge: TestBridge;
before(async () => {
  bridge = await startTestBridge();
});
after(async () => {
  await bridge.dispose();
});

describe("pi-kit-acp and bad input", () => {
  test("malformed JSON, an unknown method, an unknown session: errors, and the agent lives on", async () => {
    const agent = startAgent(["--url", bridge.served.url, "--token-file", bridge.tokenFile]);
    try {
      const next = replies(agent);
      send(agent, initialize(1));
      await next((r) => r.id === 1 && r.result !== undefined);

      send(agent, "{this is not json");
      const parse = await next((r) => r.error?.code === -32700);
      assert.equal(parse.id, null);
      assert.match(parse.error?.message ?? "", /parse error/i);

      send(agent, { jsonrpc: "2.0", id: 2, method: "session/teleport", params: {} });
      const unknown = await next((r) => r.id === 2);
      assert.equal(unknown.error?.code, -32601);

      send(agent, {
        jsonrpc: "2.0",
        id: 3,
        method: "session/prompt",
        params: { sessionId: "nowhere", prompt: [{ type: "text", text: "hi" }] },
      });
      const noSession = await next((r) => r.id === 3);
      assert.equal(noSession.error?.code, -32002);
      assert.match(noSession.error?.message ?? "", /No open session "nowhere"/);

      send(agent, { jsonrpc: "2.0", id: 4, method: "session/prompt", params: { sessionId: 7 } });
      const badParams = await next((r) => r.id === 4);
      assert.equal(badParams.error?.code, -32602);

      send(agent, {
        jsonrpc: "2.0",
        id: 5,
        method: "session/load",
        params: { sessionId: "no-such-session", cwd: "/", mcpServers: [] },
      });
      const notStored = await next((r) => r.id === 5);
      assert.equal(notStored.error?.code, -32002);
      assert.match(notStored.error?.message ?? "", /no session "no-such-session"/);

      // Still alive and answering.
      send(agent, { jsonrpc: "2.0", id: 6, method: "session/list", params: {} });
      const list = await next((r) => r.id === 6);
      assert.ok(list.result !== undefined, JSON.stringify(list));
      assert.equal(agent.child.exitCode, null);
    } finally {
      assert.equal(await agent.stop(), 0);
    }
  });

  test("a bridge that refuses the token: an authentication error, and the agent lives on", async () => {
    const wrong = join(bridge.pi.tempRoot, "wrong-token");
    writeFileSync(wrong, "not-the-token\n");
    const agent = startAgent(["--url", bridge.served.url, "--token-file", wrong]);
    try {
      const next = replies(agent);
      send(agent, initialize(1));
      await next((r) => r.id === 1);
      send(agent, {
        jsonrpc: "2.0",
        id: 2,
        method: "session/new",
        params: { cwd: "/", mcpServers: [] },
      });
      const refused = await next((r) => r.id === 2);
      assert.equal(refused.error?.code, -32000);
      assert.match(refused.error?.message ?? "", /the bridge refused the token/);
      send(agent, { jsonrpc: "2.0", id: 3, method: "session/list", params: {} });
      const again = await next((r) => r.id === 3);
      assert.equal(again.error?.code, -32000);
      assert.equal(agent.child.exitCode, null);
    } finally {
      assert.equal(await agent.stop(), 0);
    }
  });

  test("a ticket command: its output opens a session; a failing one is a clear error", async () => {
    const good = startAgent([
      "--url",
      bridge.served.url,
      "--ticket-command",
      `cat '${bridge.tokenFile}'`,
    ]);
    const bad = startAgent([
      "--url",
      bridge.served.url,
      "--ticket-command",
      "echo no tickets today >&2; exit 3",
    ]);
    try {
      const fromGood = replies(good);
      const fromBad = replies(bad);
      const create = {
        jsonrpc: "2.0",
        id: 2,
        method: "session/new",
        params: { cwd: "/", mcpServers: [] },
      };
      send(good, initialize(1));
      send(bad, initialize(1));
      await fromGood((r) => r.id === 1);
      await fromBad((r) => r.id === 1);
      send(good, create);
      send(bad, create);
      const created = await fromGood((r) => r.id === 2);
      assert.ok(created.result !== undefined, JSON.stringify(created));
      const failed = await fromBad((r) => r.id === 2);
      assert.equal(failed.error?.code, -32000);
      assert.match(
        failed.error?.message ?? "",
        /no token for the bridge: the ticket command failed: no tickets today/,
      );
      assert.equal(bad.child.exitCode, null);
    } finally {
      assert.equal(await good.stop(), 0);
      assert.equal(await bad.stop(), 0);
    }
  });
});
