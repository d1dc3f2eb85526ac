/**
 * The runtime matrix: the bridge CLI on Node, Deno and Bun, and every client the docs name
 * connecting to each: Node 20 with `@pi-kit/client/ws-node`, Node 22's global `WebSocket`, Deno's
 * and Bun's own `WebSocket` through `@pi-kit/client`, the Python example of
 * docs/bridge-protocol.md (Debian's python3-websockets), and a raw client that sends the
 * subprotocol list without spaces and with odd spacing. Each pair does a refusal with a wrong
 * token, a prompt round trip on the scripted model (real pi 1.x), and a reconnect mid-answer: a
 * proxy drops the connection as a lost network does, and the client reattaches and gets the whole
 * answer. One bridge per runtime serves every client, each on a session of its own.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import {
  type ModelServer,
  type PiCommand,
  piCommand,
  resolveNode20,
  resolveNode22,
  startModelServer,
} from "@pi-kit/testing";
import {
  BRIDGE_RUNTIMES,
  type BridgeRuntime,
  bun,
  deno,
  type MatrixBridge,
  root,
  run,
  startMatrixBridge,
} from "../matrix/matrix-bridge.ts";
import { type RawSocket, type Rec, rawConnect } from "../matrix/raw-client.ts";

const piKitClientScript = fileURLToPath(new URL("../matrix/pi-kit-client.ts", import.meta.url));
/** Debian's Python, where python3-websockets installs (scripts/ensure-python-websockets.mjs). */
const python = "/usr/bin/python3";
const ROUND_TRIP = "matrix round trip ok";
const TICKS = Array.from({ length: 12 }, (_, i) => `tick ${i + 1}`).join(" ");

let model: ModelServer;
let pi: PiCommand;
const bridges = new Map<BridgeRuntime, MatrixBridge>();
let pythonExample: string;
let scratch: string;

before(async () => {
  model = await startModelServer();
  pi = piCommand({ version: "1", baseUrl: model.baseUrl });
  scratch = mkdtempSync(join(tmpdir(), "pi-kit-matrix-"));
  pythonExample = join(scratch, "client.py");
  writeFileSync(pythonExample, documentedPythonClient());
  await Promise.all(
    (Object.keys(BRIDGE_RUNTIMES) as BridgeRuntime[]).map(async (name) => {
      bridges.set(name, await startMatrixBridge(name, pi));
    }),
  );
});

after(async () => {
  await Promise.all([...bridges.values()].map((bridge) => bridge.stop()));
  await model?.close();
  pi?.dispose();
  rmSync(scratch, { recursive: true, force: true });
});

/** The Python client of docs/bridge-protocol.md, as written there. */
function documentedPythonClient(): string {
  const doc = readFileSync(join(root, "docs/bridge-protocol.md"), "utf8");
  const at = doc.indexOf("And a client with [`websockets`]");
  const code = /```python\n([\s\S]*?)```/.exec(doc.slice(at))?.[1];
  assert.ok(at !== -1 && code !== undefined, "the document has its Python client");
  return code;
}

/** What a client reported for one case, by case name. */
type Outcome = Record<string, Rec>;

/** `@pi-kit/client` on a runtime: its script prints one JSON line per case. */
function piKitClient(command: string, args: readonly string[], kind: string) {
  return async (url: string, token: string): Promise<Outcome> => {
    const done = await run(command, [...args, piKitClientScript, kind, url, token]).exited;
    const lines = done.stdout.split("\n").filter((l) => l.startsWith("{"));
    assert.equal(
      lines.length,
      3,
      `three cases reported (exit ${done.code}):\n${done.stdout}\n${done.stderr}`,
    );
    return Object.fromEntries(
      lines.map((l) => JSON.parse(l) as Rec).map((r) => [String(r.case), r]),
    );
  };
}

/** The document's Python client, once per case. */
async function pythonClient(url: string, token: string): Promise<Outcome> {
  const env = { PI_KIT_URL: url };
  const refused = await run(python, [pythonExample, "hello"], {
    ...env,
    PI_KIT_BRIDGE_TOKEN: "wrong-token-0123456789abcdef",
  }).exited;
  const trip = await run(python, [pythonExample, `[[text ${ROUND_TRIP}]]`], {
    ...env,
    PI_KIT_BRIDGE_TOKEN: token,
  }).exited;
  const resumed = await run(python, [pythonExample, "[[slow 100ms x 12]]"], {
    ...env,
    PI_KIT_BRIDGE_TOKEN: token,
  }).exited;
  const refusal = /received (\d{4}) .*"code":"([a-z_]+)"/.exec(refused.stderr);
  return {
    refusal: {
      exit: refused.code,
      closeCode: Number(refusal?.[1]),
      bridgeCode: refusal?.[2],
      stderr: refused.stderr.slice(-300),
    },
    "round trip": { exit: trip.code, text: trip.stdout.trim(), stderr: trip.stderr.slice(-300) },
    reconnect: {
      exit: resumed.code,
      text: resumed.stdout.trim(),
      stderr: resumed.stderr.slice(-300),
    },
  };
}

/** The raw client with the subprotocol list spelled by `spell`. */
function rawClient(spell: (token: string) => string) {
  return async (url: string, token: string): Promise<Outcome> => {
    const refused = await rawConnect(url, spell("wrong-token-0123456789abcdef"));
    const close = await refused.closed;
    const s = await rawConnect(url, spell(token));
    const echoed = /^sec-websocket-protocol: (.*)$/im.exec(s.head)?.[1];
    await s.waitFor((r) => r.type === "bridge_control");
    const trip = await promptRaw(s, `[[text ${ROUND_TRIP}]]`);
    // The proxy drops this connection mid-answer; reattach, resync, and read the answer.
    const from = s.records.length;
    s.send({ type: "prompt", id: "q", message: "[[slow 100ms x 12]]" });
    await s.waitFor((r) => r.type === "response" && r.id === "q", from);
    const dropped = await s.closed;
    const again = await rawConnect(url, spell(token));
    await again.waitFor((r) => r.type === "bridge_control");
    const state = await ask(again, { type: "get_state" });
    if ((state.data as { isStreaming: boolean }).isStreaming)
      await again.waitFor((r) => r.type === "agent_settled");
    const text = await ask(again, { type: "get_last_assistant_text" });
    again.send({ type: "bridge_take_control" });
    return {
      refusal: {
        closeCode: close.code,
        bridgeCode: (JSON.parse(close.reason || "{}") as Rec).code,
      },
      "round trip": { echoed, text: trip },
      reconnect: { dropped: dropped.code, text: (text.data as { text?: string }).text },
    };
  };
}

let asked = 0;
async function ask(s: RawSocket, command: Rec): Promise<Rec> {
  const id = `a${++asked}`;
  const from = s.records.length;
  s.send({ ...command, id });
  return s.waitFor((r) => r.type === "response" && r.id === id, from);
}

async function promptRaw(s: RawSocket, message: string): Promise<string | undefined> {
  const from = s.records.length;
  s.send({ type: "prompt", id: "p", message });
  const reply = await s.waitFor((r) => r.type === "response" && r.id === "p", from);
  assert.equal(reply.success, true, JSON.stringify(reply));
  await s.waitFor((r) => r.type === "agent_settled", from);
  return ((await ask(s, { type: "get_last_assistant_text" })).data as { text?: string }).text;
}

/** Every client the docs name, by label. */
const CLIENTS: Record<string, (url: string, token: string) => Promise<Outcome>> = {
  "Node 20 + @pi-kit/client/ws-node": piKitClient(
    resolveNode20(),
    ["--conditions=@pi-kit/source", "--import", "tsx"],
    "ws-node",
  ),
  "Node 22 global WebSocket": piKitClient(
    resolveNode22(),
    ["--conditions=@pi-kit/source"],
    "global",
  ),
  "Deno WebSocket": piKitClient(deno, ["run", "-A"], "global"),
  "Bun WebSocket": piKitClient(bun, ["--conditions", "@pi-kit/source"], "global"),
  "Python websockets (docs example)": pythonClient,
  "raw, list without spaces": rawClient((t) => `pi-kit.v1,pi-kit.token.${t}`),
  "raw, list oddly spaced": rawClient((t) => ` pi-kit.token.${t} ,\t ,pi-kit.v1 `),
};

/** What every pair must show, case by case; `""` when it holds. */
function problems(label: string, outcome: Outcome, cut: boolean): string[] {
  const found: string[] = [];
  const expect = (ok: boolean, what: string, got: unknown): void => {
    if (!ok) found.push(`${label}: ${what} (got ${JSON.stringify(got)})`);
  };
  const { refusal, "round trip": trip, reconnect } = outcome as Record<string, Rec>;
  expect(
    refusal?.bridgeCode === "wrong_token" &&
      (refusal.closeCode === 4401 || refusal.closeCode === undefined),
    "a wrong token is refused with 4401 wrong_token",
    refusal,
  );
  expect(String(trip?.text).trim() === ROUND_TRIP, "the prompt's answer comes back", trip);
  if (trip?.echoed !== undefined)
    expect(trip.echoed === "pi-kit.v1", "the handshake echoes pi-kit.v1 alone", trip.echoed);
  expect(
    String(reconnect?.text).trim() === TICKS,
    "the whole answer after a reconnect mid-answer",
    reconnect,
  );
  if (reconnect?.shown !== undefined)
    expect(reconnect.shown === 1, "the answer shown once, not twice", reconnect);
  expect(cut, "the proxy cut the connection mid-answer", cut);
  return found;
}

/** Clients served by one bridge at once. */
const CLIENTS_AT_ONCE = 4;

// The three bridges at once: most of a pair's time is waiting (pi starting, the scripted model's
// pace), so they overlap well even on two cores.
describe("matrix", { concurrency: true }, () => {
  for (const runtime of Object.keys(BRIDGE_RUNTIMES) as BridgeRuntime[]) {
    test(`matrix: the bridge CLI on ${runtime} serves every client (refusal, round trip, reconnect mid-answer)`, async () => {
      const bridge = bridges.get(runtime);
      assert.ok(bridge, `the ${runtime} bridge started`);
      const labels = Object.keys(CLIENTS);
      const found: string[] = [];
      // A few at a time: each client's session starts a pi.
      for (let i = 0; i < labels.length; i += CLIENTS_AT_ONCE) {
        await Promise.all(
          labels.slice(i, i + CLIENTS_AT_ONCE).map(async (label, j) => {
            const session = `m-${runtime}-${i + j}`;
            const url = `${bridge.proxy.wsBase}/sessions/${session}/ws?label=matrix`;
            try {
              const outcome = await (CLIENTS[label] as (u: string, t: string) => Promise<Outcome>)(
                url,
                bridge.token,
              );
              found.push(...problems(label, outcome, bridge.proxy.cut.has(session)));
            } catch (error) {
              found.push(`${label}: ${error instanceof Error ? error.stack : String(error)}`);
            }
          }),
        );
      }
      assert.deepEqual(found, [], found.join("\n"));
    });
  }
});
