/**
 * The agent on a pair of byte streams, as an editor connects to it: newline-delimited JSON-RPC
 * out on `output`, in from `input` (stdout and stdin in `pi-kit-acp`).
 */
import { type AgentConnection, ndJsonStream } from "@agentclientprotocol/sdk";
import { type AcpAgentOptions, createAcpAgent } from "./agent.ts";

/**
 * Runs an agent ({@link createAcpAgent}) on `output` and `input`; the connection's `closed`
 * settles when the editor closes `input`.
 * @example
 * ```ts
 * import { Readable, Writable } from "node:stream";
 * import { bridgeBackend, connectAcpAgent } from "@pi-kit/acp";
 * connectAcpAgent(
 *   { backend: bridgeBackend({ url: "http://127.0.0.1:8787", token }) },
 *   Writable.toWeb(process.stdout),
 *   Readable.toWeb(process.stdin),
 * );
 * ```
 */
export function connectAcpAgent(
  options: AcpAgentOptions,
  output: WritableStream<Uint8Array>,
  input: ReadableStream<Uint8Array>,
): AgentConnection {
  return createAcpAgent(options).connect(ndJsonStream(output, input));
}
