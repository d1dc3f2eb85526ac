/**
 * Test helpers: a bridge on the current runtime's own adapter, serving real pi 1.x against the
 * scripted model server, and a WebSocket client that works on Node 20 (ws), Node 22, Deno and Bun.
 */
import { connect as tcpConnect } from "node:net";
import {
  createWebSocketTransport,
  PiClient,
  type ReconnectOptions,
  type WebSocketConstructor,
} from "@pi-kit/client";
import { type PiCommand, piCommand, sessionHostOptions, startModelServer } from "@pi-kit/testing";
import type { BridgeLogEvent, ServeBridgeOptions, ServedBridge } from "../src/index.ts";

/** The runtime the tests run on. */
export const runtime: "node" | "deno" | "bun" =
  (globalThis as { Bun?: unknown }).Bun !== undefined
    ? "bun"
    : (globalThis as { Deno?: unknown }).Deno !== undefined
      ? "deno"
      : "node";

/**
 * The pi lines a live test runs on: both on Node, 1.x only on Deno and Bun (the bridge's own code is
 * the same there; the runtimes differ in how they run it, which 1.x shows as well).
 */
export const lineVersions: readonly ("1" | "0.73")[] = runtime === "node" ? ["1", "0.73"] : ["1"];

/** A bridge under test, with its model server, pi command and log. */
export interface TestBridge extends ServedBridge {
  readonly pi: PiCommand;
  readonly log: BridgeLogEvent[];
  /** The sessions directory the bridge uses. */
  readonly sessionsDir: string;
  /** `ws://…/sessions/<name>/ws`. */
  wsUrl(name: string): string;
  /** Stops the bridge, the model server and removes the temp dirs. */
  dispose(): Promise<void>;
}

/** Starts a bridge on this runtime's adapter. */
export async function startBridge(
  options: Partial<ServeBridgeOptions> & {
    uiProbe?: boolean;
    version?: "1" | "0.73";
    /** More pi extensions, loaded with `-e`. */
    extensions?: readonly string[];
  } = {},
): Promise<TestBridge> {
  const model = await startModelServer();
  const pi = piCommand({
    version: options.version ?? "1",
    baseUrl: model.baseUrl,
    uiProbe: options.uiProbe ?? false,
    extensions: options.extensions ?? [],
  });
  const log: BridgeLogEvent[] = [];
  const adapter =
    runtime === "bun"
      ? await import("../src/adapters/bun.ts")
      : runtime === "deno"
        ? await import("../src/adapters/deno.ts")
        : await import("../src/adapters/node.ts");
  const { uiProbe: _, version: __, extensions: ___, ...rest } = options;
  const host = sessionHostOptions(pi);
  const served = await adapter
    .serveBridge({
      ...host,
      port: 0,
      logger: (entry) => log.push(entry),
      // pi reads stdin only once it has booted, which can take seconds on a loaded machine: a
      // stop right after a start must still be the graceful one (exit 0), not SIGTERM's.
      stopTimeouts: { stdinCloseMs: 15_000, sigtermMs: 1000 },
      ...rest,
    })
    .catch(async (error: unknown) => {
      // A bridge that refused to start (its sessions directory in use) leaves nothing running.
      await model.close();
      pi.dispose();
      throw error;
    });
  return {
    ...served,
    pi,
    log,
    sessionsDir: rest.sessionsDir ?? host.sessionsDir,
    wsUrl: (name) => `${served.url.replace(/^http/, "ws")}/sessions/${name}/ws`,
    async dispose() {
      await served.close();
      await model.close();
      pi.dispose();
    },
  };
}

/** A parsed record from the bridge. */
export type Rec = Record<string, unknown>;

/** A test WebSocket client that keeps every record it receives. */
export interface TestClient {
  readonly records: Rec[];
  readonly protocol: string;
  /** Settles with the close code and reason. */
  readonly closed: Promise<{ code: number; reason: string }>;
  send(record: Rec | string): void;
  /** Resolves with the first record (from `from` on) matching `predicate`. */
  waitFor(predicate: (record: Rec) => boolean, timeoutMs?: number, from?: number): Promise<Rec>;
  /** Sends a command with an id and resolves with its response. */
  request(command: Rec, timeoutMs?: number): Promise<Rec>;
  close(): Promise<void>;
}

interface MinimalWebSocket {
  readonly protocol: string;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

type WebSocketCtor = new (url: string, protocols?: string[]) => MinimalWebSocket;

let requestId = 0;

/** The bridge's id for `client`'s connection: `you.id` of its first `bridge_control`. */
export async function idOf(client: Pick<TestClient, "waitFor">): Promise<number> {
  const control = await client.waitFor((r) => r.type === "bridge_control");
  return (control.you as { id: number }).id;
}

/** Where a test client connects: a bridge under test, or any bridge's URLs and token. */
export type BridgeAddress = Pick<TestBridge, "wsUrl" | "token">;

/** Opens a socket with the token in the subprotocol list, as a browser would. */
export async function connect(bridge: BridgeAddress, name: string): Promise<TestClient> {
  // Node 20 has no global WebSocket: fall back to the ws package there.
  const WS =
    (globalThis as { WebSocket?: WebSocketCtor }).WebSocket ??
    ((await import("ws")) as unknown as { WebSocket: WebSocketCtor }).WebSocket;
  const ws = new WS(bridge.wsUrl(name), ["pi-kit.v1", `pi-kit.token.${bridge.token}`]);
  const records: Rec[] = [];
  const waiters = new Set<() => void>();
  let isClosed = false;
  let resolveClosed!: (value: { code: number; reason: string }) => void;
  const closed = new Promise<{ code: number; reason: string }>((r) => (resolveClosed = r));
  ws.onmessage = (event) => {
    records.push(JSON.parse(String(event.data)) as Rec);
    for (const wake of waiters) wake();
  };
  ws.onclose = (event) => {
    // Set before waking the waiters, so a waiter learns at once that nothing more will come.
    isClosed = true;
    resolveClosed({ code: event.code, reason: event.reason });
    for (const wake of waiters) wake();
  };
  await new Promise<void>((resolve, reject) => {
    ws.onopen = () => resolve();
    ws.onerror = () => reject(new Error("WebSocket failed to open"));
  });
  ws.onerror = () => {};
  const client: TestClient = {
    records,
    protocol: ws.protocol,
    closed,
    send: (record) => ws.send(typeof record === "string" ? record : JSON.stringify(record)),
    waitFor(predicate, timeoutMs = 15_000, from = 0) {
      return new Promise((resolve, reject) => {
        let index = from;
        const check = (): void => {
          for (; index < records.length; index++) {
            const record = records[index] as Rec;
            if (predicate(record)) {
              finish(() => resolve(record));
              return;
            }
          }
          if (isClosed) finish(() => reject(new Error("closed before the record came")));
        };
        const timer = setTimeout(() => finish(() => reject(new Error("timed out"))), timeoutMs);
        const finish = (then: () => void): void => {
          clearTimeout(timer);
          waiters.delete(check);
          then();
        };
        waiters.add(check);
        check();
      });
    },
    request(command, timeoutMs) {
      const id = `r${++requestId}`;
      const from = records.length;
      client.send({ ...command, id });
      return client.waitFor((r) => r.type === "response" && r.id === id, timeoutMs, from);
    },
    async close() {
      if (!isClosed) ws.close(1000);
      await closed;
    },
  };
  return client;
}

/** The bytes of a raw WebSocket handshake for `path` on `url`'s host, with `headers`. */
export function upgradeRequest(url: URL, path: string, headers: Record<string, string>): string {
  const lines = [
    `GET ${path} HTTP/1.1`,
    `Host: ${url.host}`,
    "Connection: Upgrade",
    "Upgrade: websocket",
    "Sec-WebSocket-Version: 13",
    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  return `${lines.join("\r\n")}\r\n\r\n`;
}

/**
 * Sends a raw WebSocket handshake and returns the HTTP status (and headers) it got; after a 101,
 * also the code of a close frame that follows within a second, if one does.
 */
export function rawUpgrade(
  bridge: TestBridge,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; head: string; closeCode?: number }> {
  const url = new URL(bridge.url);
  return new Promise((resolve, reject) => {
    const socket = tcpConnect(Number(url.port), url.hostname, () =>
      socket.write(upgradeRequest(url, path, headers)),
    );
    let data = "";
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = (): void => {
      clearTimeout(timer);
      socket.destroy();
      const end = data.indexOf("\r\n\r\n");
      const status = Number(data.split(" ")[1]);
      const frame = data.slice(end + 4);
      // A server's close frame: 0x88, an unmasked length, then the code in two bytes.
      const closeCode =
        frame.length >= 4 && frame.charCodeAt(0) === 0x88
          ? (frame.charCodeAt(2) << 8) | frame.charCodeAt(3)
          : undefined;
      resolve({
        status,
        head: data.slice(0, end),
        ...(closeCode === undefined ? {} : { closeCode }),
      });
    };
    socket.on("data", (chunk) => {
      data += chunk.toString("latin1");
      const end = data.indexOf("\r\n\r\n");
      if (end === -1) return;
      if (Number(data.split(" ")[1]) !== 101 || data.length >= end + 8) finish();
      else timer ??= setTimeout(finish, 1000);
    });
    socket.on("error", reject);
  });
}

/**
 * A `PiClient` on session `name` of the bridge at `url`, through the client's WebSocket transport;
 * it does not reconnect unless given `reconnect` options.
 */
export async function connectClient(
  url: string,
  token: string,
  name: string,
  reconnect: ReconnectOptions | false = false,
): Promise<PiClient> {
  // Node 20 has no global WebSocket: the ws package stands in.
  const WebSocket =
    (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket ??
    ((await import("ws")) as unknown as { WebSocket: WebSocketConstructor }).WebSocket;
  const transport = createWebSocketTransport({
    url: `${url.replace(/^http/, "ws")}/sessions/${name}/ws`,
    token,
    WebSocket,
    reconnect,
  });
  return PiClient.connect(transport, { resync: true });
}

/** pi's own records (events, dialogs) a client got, without responses and the bridge's records. */
export const piEvents = (client: TestClient): Rec[] =>
  client.records.filter((r) => r.type !== "response" && !String(r.type).startsWith("bridge_"));

/** Authorization header for HTTP calls. */
export function auth(bridge: TestBridge): Record<string, string> {
  return { authorization: `Bearer ${bridge.token}` };
}

/** Sleeps. */
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Polls `predicate` every 20 ms until it holds or `timeoutMs` passes. */
export async function until(predicate: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = performance.now() + timeoutMs;
  while (!predicate()) {
    if (performance.now() > end) throw new Error("condition not met in time");
    await sleep(20);
  }
}

/** Has the model run `command` through pi's bash tool; resolves with what the tool returned. */
export async function bash(client: TestClient, command: string): Promise<string> {
  const from = client.records.length;
  await client.request({ type: "prompt", message: `[[bash ${command}]]` }, 60_000);
  const end = await client.waitFor((r) => r.type === "tool_execution_end", 60_000, from);
  await client.waitFor((r) => r.type === "agent_settled", 60_000, from);
  const content = (end.result as { content?: Array<{ text?: string }> }).content ?? [];
  return content.map((c) => c.text ?? "").join("");
}

/** Sends a prompt and waits for the run to settle; resolves with the records of the run. */
export async function run(client: TestClient, message: string): Promise<Rec[]> {
  const from = client.records.length;
  await client.request({ type: "prompt", message }, 60_000);
  await client.waitFor((r) => r.type === "agent_settled", 60_000, from);
  return client.records.slice(from);
}
