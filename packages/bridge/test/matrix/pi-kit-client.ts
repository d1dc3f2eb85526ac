/**
 * One client of the runtime matrix: `@pi-kit/client` on the runtime that runs this file, with the
 * WebSocket named by its first argument (`ws-node`: `@pi-kit/client/ws-node`, as on Node 20;
 * `global`: the runtime's own `WebSocket`). It does the matrix's three cases on one session and
 * prints one JSON line each: a refusal with a wrong token, a prompt round trip, and a prompt whose
 * connection the test's proxy cuts mid-answer (the transport reattaches and the answer completes).
 * Usage: pi-kit-client.ts <ws-node|global> <ws://proxy/sessions/NAME/ws> <token>
 */
import process from "node:process";
import {
  createWebSocketTransport,
  PiClient,
  type PiClientError,
  type WebSocketTransport,
} from "@pi-kit/client";
import { createNodeWebSocketTransport } from "@pi-kit/client/ws-node";

const [kind, url, token] = process.argv.slice(2) as [string, string, string];
const reconnect = { initialDelayMs: 50, maxDelayMs: 400, maxAttempts: 100 };

async function transport(credential: string): Promise<WebSocketTransport> {
  const options = { url, token: credential, reconnect };
  return kind === "ws-node"
    ? createNodeWebSocketTransport(options)
    : createWebSocketTransport(options);
}

const report = (fields: Record<string, unknown>): void => {
  process.stdout.write(`${JSON.stringify(fields)}\n`);
};

try {
  await PiClient.connect(await transport("wrong-token-0123456789abcdef"));
  report({ case: "refusal", connected: true });
} catch (error) {
  const e = error as PiClientError;
  report({ case: "refusal", code: e.code, bridgeCode: e.bridgeCode, closeCode: e.closeCode });
}

const link = await transport(token);
let opened = 0;
link.addEventListener("statechange", () => {
  if (link.state.status === "open") opened++;
});
const client = await PiClient.connect(link, { resync: true });
const first = await client.promptAndWait("[[text matrix round trip ok]]", {
  settleTimeoutMs: 60_000,
});
report({ case: "round trip", aborted: first.aborted, text: await client.getLastAssistantText() });
const resumed = await client.promptAndWait("[[slow 100ms x 12]]", { settleTimeoutMs: 60_000 });
// What a UI would show: the answer once, whole, in the session model the snapshot was merged into.
const shown = client.session
  .getSnapshot()
  .messages.filter((m) => m.role === "assistant" && JSON.stringify(m.content).includes("tick 1 "));
report({
  case: "reconnect",
  aborted: resumed.aborted,
  text: await client.getLastAssistantText(),
  opened,
  shown: shown.length,
});
await client.close();
