/**
 * Helpers of the live suites: real pi (any release of the test kit's matrix) spawned through the
 * child-process transport against the scripted model server, with the ui-probe extension.
 */
import type { AgentMessage } from "@pi-kit/protocol";
import { type ModelServer, type PiVersion, piCommand } from "@pi-kit/testing";
import { type ClientEvent, type ConnectOptions, PiClient } from "../../src/index.ts";
import { spawnPi } from "../../src/process.ts";
import type { ChildProcessTransport } from "../../src/transports/child-process/options.ts";
import type { Transport } from "../../src/transports/transport.ts";

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
}

/** Spawns pi `version` with the ui-probe extension and connects a client to it. */
export async function startPi(
  server: ModelServer,
  version: PiVersion,
  options: StartOptions = {},
): Promise<StartedPi> {
  const { sessionDir, model, wrap, ...connect } = options;
  const cmd = piCommand({
    version,
    baseUrl: server.baseUrl,
    uiProbe: true,
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
