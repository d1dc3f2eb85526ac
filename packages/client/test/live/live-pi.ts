/**
 * Helpers of the live suites: real pi (any release of the test kit's matrix) spawned through the
 * child-process transport against the scripted model server, with the ui-probe extension.
 */
import assert from "node:assert/strict";
import type { AgentMessage } from "@pi-kit/protocol";
import { type ModelServer, type PiVersion, piCommand } from "@pi-kit/testing";
import {
  type ClientEvent,
  type ConnectOptions,
  PiClient,
  type TransportFrames,
} from "../../src/index.ts";
import { spawnPi } from "../../src/process.ts";
import type { ChildProcessTransport } from "../../src/transports/child-process/options.ts";
import type { Transport } from "../../src/transports/transport.ts";

const runtime = "Deno" in globalThis ? "deno" : "Bun" in globalThis ? "bun" : "node";

/**
 * The pi releases a live suite runs on: both lines everywhere, and the releases between them
 * (0.87.1, 1.0.3) on the Node leg only. The runtime changes nothing in what pi sends, so running
 * those three times over would only cost CI time.
 */
export const LIVE_VERSIONS: readonly PiVersion[] =
  runtime === "node" ? ["1", "0.73", "0.87", "1.0"] : ["1", "0.73"];

/** A connected client on a real pi. */
export interface StartedPi {
  readonly client: PiClient;
  readonly transport: ChildProcessTransport;
  /** pi's working directory. */
  readonly workspace: string;
  stop(): Promise<void>;
}

/** Options of {@link startPi}. */
export interface StartOptions extends ConnectOptions {
  /** Persist sessions in a temp dir (pi runs with `--no-session` otherwise). */
  readonly sessionDir?: boolean;
  /** The model id (`scripted` by default). */
  readonly model?: string;
  /** Wraps the transport before the client gets it (for example to change how records arrive). */
  readonly wrap?: (transport: Transport) => Transport;
  /** More pi extensions, loaded with `-e` after the ui-probe. */
  readonly extensions?: readonly string[];
}

/** Spawns pi `version` with the ui-probe extension and connects a client to it. */
export async function startPi(
  server: ModelServer,
  version: PiVersion,
  options: StartOptions = {},
): Promise<StartedPi> {
  const { sessionDir, model, wrap, extensions, ...connect } = options;
  const cmd = piCommand({
    version,
    baseUrl: server.baseUrl,
    uiProbe: true,
    ...(extensions ? { extensions } : {}),
    ...(sessionDir ? { sessionDir: true } : {}),
    ...(model ? { model } : {}),
  });
  const transport = await spawnPi({
    command: cmd.command,
    args: cmd.args,
    cwd: cmd.cwd,
    env: cmd.env,
  });
  const client = await PiClient.connect(wrap ? wrap(transport) : transport, connect);
  return {
    client,
    transport,
    workspace: cmd.workspace,
    stop: async () => {
      await client.close();
      cmd.dispose();
    },
  };
}

/** Resolves with the next event that matches, or rejects after `ms`. */
export function nextEvent<T extends ClientEvent>(
  client: PiClient,
  match: (e: ClientEvent) => e is T,
  ms = 15_000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error("timed out waiting for an event"));
    }, ms);
    const off = client.onEvent((e) => {
      if (!match(e)) return;
      clearTimeout(timer);
      off();
      resolve(e);
    });
  });
}

/** The ui-probe reports each dialog outcome as `notify("result: <mode>=<json>")`. */
export async function probeResult(client: PiClient, mode: string): Promise<string> {
  const e = await nextEvent(
    client,
    (x): x is Extract<ClientEvent, { method: "notify" }> =>
      x.type === "extension_ui_request" &&
      x.method === "notify" &&
      x.message.startsWith(`result: ${mode}=`),
  );
  return e.message.slice(`result: ${mode}=`.length);
}

/** The text of an assistant message ("" for any other message). */
export function textOf(message: AgentMessage | undefined): string {
  if (message?.role !== "assistant") return "";
  return message.content.map((c) => (c.type === "text" ? c.text : "")).join("");
}

/** The text of a user message ("" for any other message). */
export function userText(message: AgentMessage | undefined): string {
  if (message?.role !== "user") return "";
  const { content } = message;
  return typeof content === "string"
    ? content
    : content.map((c) => (c.type === "text" ? c.text : "")).join("");
}

/**
 * Wraps a transport so each record arrives in a read, and a task, of its own, as over a
 * WebSocket (one record per message): code awaiting a response runs before the next record.
 */
export function onePerTask(transport: Transport): Transport {
  const split = new TransformStream<TransportFrames, TransportFrames>({
    async transform(batch, controller) {
      for (const frame of batch) {
        controller.enqueue([frame]);
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
    },
  });
  return {
    readable: transport.readable.pipeThrough(split),
    writable: transport.writable,
    closed: transport.closed,
    close: () => transport.close(),
  };
}

/**
 * Runs `prompt` to its end and checks that every assistant message the session model assembled
 * from `message_update` deltas equals the `message_end` that replaced it; returns how many.
 */
export async function assertStreamsAssemble(client: PiClient, prompt: string): Promise<number> {
  let assembled: AgentMessage | undefined;
  const pairs: Array<[AgentMessage | undefined, AgentMessage]> = [];
  const offUpdate = client.on("message_update", () => {
    assembled = client.session.getSnapshot().streamingMessage;
  });
  const offEnd = client.on("message_end", (e) => {
    if (e.message.role === "assistant") pairs.push([assembled, e.message]);
    assembled = undefined;
  });
  try {
    await client.promptAndWait(prompt);
  } finally {
    offUpdate();
    offEnd();
  }
  for (const [built, final] of pairs) {
    assert.equal(built?.role, "assistant", "a streamed message was assembled");
    assert.deepEqual(
      built?.role === "assistant" && built.content,
      final.role === "assistant" && final.content,
    );
  }
  return pairs.length;
}

/** Resolves once `check` holds, looking again at every session change; rejects after `ms`. */
export function whenSession(client: PiClient, check: () => boolean, ms = 15_000): Promise<void> {
  if (check()) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error("the session never got there"));
    }, ms);
    const off = client.session.subscribe(() => {
      if (!check()) return;
      clearTimeout(timer);
      off();
      resolve();
    });
  });
}
