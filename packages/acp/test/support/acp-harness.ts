/**
 * Test harness: a real bridge (this runtime's adapter) serving real pi 1.x against the scripted
 * model, the `pi-kit-acp` command as a child process on real stdio, and the ACP SDK's own client
 * app talking to it, keeping every `session/update` and answering permission requests as told.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import {
  type ClientCapabilities,
  type ClientConnection,
  type CreateElicitationRequest,
  type CreateElicitationResponse,
  client,
  methods,
  ndJsonStream,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
  type SessionUpdate,
} from "@agentclientprotocol/sdk";
import type { ServedBridge } from "@pi-kit/bridge";
import { type PiCommand, piCommand, sessionHostOptions, startModelServer } from "@pi-kit/testing";

const cli = fileURLToPath(new URL("../../src/cli.ts", import.meta.url));

/** The runtime the tests run on; the agent and the bridge run on it too. */
export const runtime: "node" | "deno" | "bun" =
  (globalThis as { Bun?: unknown }).Bun !== undefined
    ? "bun"
    : (globalThis as { Deno?: unknown }).Deno !== undefined
      ? "deno"
      : "node";

/** How this runtime runs the CLI from source. */
const cliArgs: readonly string[] =
  runtime === "bun"
    ? ["--conditions", "@pi-kit/source", cli]
    : runtime === "deno"
      ? ["run", "-A", "--conditions=@pi-kit/source", cli]
      : ["--conditions=@pi-kit/source", "--import", "tsx", cli];

/** A bridge on real pi 1.x and the scripted model, with the ui-probe extension. */
export interface TestBridge {
  readonly served: ServedBridge;
  readonly pi: PiCommand;
  /** A file holding the bridge's token. */
  readonly tokenFile: string;
  dispose(): Promise<void>;
}

/** Starts a bridge on this runtime's adapter; `origins` lets pages of those origins in (browser tests). */
export async function startTestBridge(origins?: readonly string[]): Promise<TestBridge> {
  const model = await startModelServer();
  const pi = piCommand({ version: "1", baseUrl: model.baseUrl, uiProbe: true });
  const { serveBridge } =
    runtime === "bun"
      ? await import("@pi-kit/bridge/bun")
      : runtime === "deno"
        ? await import("@pi-kit/bridge/deno")
        : await import("@pi-kit/bridge/node");
  const served = await serveBridge({
    ...sessionHostOptions(pi),
    port: 0,
    ...(origins === undefined ? {} : { origins: [...origins] }),
    logger: () => {},
    stopTimeouts: { stdinCloseMs: 15_000, sigtermMs: 1000 },
  });
  const dir = mkdtempSync(join(tmpdir(), "pi-kit-acp-"));
  const tokenFile = join(dir, "token");
  writeFileSync(tokenFile, `${served.token}\n`);
  return {
    served,
    pi,
    tokenFile,
    async dispose() {
      await served.close();
      await model.close();
      pi.dispose();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The `pi-kit-acp` command running as a child process. */
export interface AgentProcess {
  readonly child: ChildProcessWithoutNullStreams;
  /** What it wrote to stderr. */
  stderr(): string;
  /** Closes its stdin and resolves with its exit code. */
  stop(): Promise<number | null>;
}

/** Starts `pi-kit-acp` with `args` (and `env` added) on this runtime, from source. */
export function startAgent(
  args: readonly string[],
  env: Record<string, string> = {},
): AgentProcess {
  // Bun takes a `--` right after the script as its own: give it one to take.
  const own = runtime === "bun" && args[0] === "--" ? ["--"] : [];
  const child = spawn(process.execPath, [...cliArgs, ...own, ...args], {
    env: { ...process.env, ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => resolve(code)),
  );
  return {
    child,
    stderr: () => stderr,
    async stop() {
      child.stdin.end();
      return exited;
    },
  };
}

/** How a test answers permission requests. */
export type PermissionAnswer = (request: RequestPermissionRequest) => RequestPermissionResponse;

/** The SDK's client app connected to an agent process, keeping every update. */
export interface AcpTestClient {
  readonly connection: ClientConnection;
  /** Every update received, oldest first. */
  readonly updates: SessionNotification[];
  /** Every permission request received. */
  readonly permissions: RequestPermissionRequest[];
  /** How permission requests are answered (cancelled by default). */
  answer: PermissionAnswer;
  /** How forms (`elicitation/create`) are answered (cancelled by default). */
  fill: (request: CreateElicitationRequest) => CreateElicitationResponse;
  /** Resolves with the first update (from index `from`) matching `match`. */
  waitForUpdate(match: (update: SessionUpdate) => boolean, from?: number): Promise<SessionUpdate>;
}

/** Connects the SDK's client app to `agent`'s stdio. */
export function connectClient(agent: AgentProcess): AcpTestClient {
  const updates: SessionNotification[] = [];
  const permissions: RequestPermissionRequest[] = [];
  const waiters = new Set<() => void>();
  const test: AcpTestClient = {
    connection: undefined as unknown as ClientConnection,
    updates,
    permissions,
    answer: () => ({ outcome: { outcome: "cancelled" } }),
    fill: () => ({ action: "cancel" }),
    waitForUpdate(match, from = 0) {
      return new Promise((resolve) => {
        const check = (): boolean => {
          const found = updates.slice(from).find((n) => match(n.update));
          if (found === undefined) return false;
          waiters.delete(wake);
          resolve(found.update);
          return true;
        };
        const wake = (): void => void check();
        if (!check()) waiters.add(wake);
      });
    },
  };
  const app = client({ name: "acp-test" })
    .onNotification(methods.client.session.update, ({ params }) => {
      updates.push(params);
      for (const wake of [...waiters]) wake();
    })
    .onRequest(methods.client.session.requestPermission, ({ params }) => {
      permissions.push(params);
      return test.answer(params);
    })
    .onRequest(methods.client.elicitation.create, ({ params }) => test.fill(params));
  const stream = ndJsonStream(
    Writable.toWeb(agent.child.stdin) as WritableStream<Uint8Array>,
    Readable.toWeb(agent.child.stdout) as ReadableStream<Uint8Array>,
  );
  (test as { connection: ClientConnection }).connection = app.connect(stream);
  return test;
}

/** `initialize` as an editor sends it, with `more` capabilities. */
export function initialize(test: AcpTestClient, more: ClientCapabilities = {}) {
  return test.connection.agent.request(methods.agent.initialize, {
    protocolVersion: 1,
    clientCapabilities: {
      fs: { readTextFile: false, writeTextFile: false },
      terminal: false,
      ...more,
    },
    clientInfo: { name: "acp-test", version: "0" },
  });
}

/** The text of the updates of kind `kind` for session `sessionId`, from index `from`, joined. */
export function textOf(
  test: AcpTestClient,
  kind: "agent_message_chunk" | "agent_thought_chunk" | "user_message_chunk",
  from = 0,
): string {
  return test.updates
    .slice(from)
    .map((n) => n.update)
    .map((u) => (u.sessionUpdate === kind && u.content.type === "text" ? u.content.text : ""))
    .join("");
}
