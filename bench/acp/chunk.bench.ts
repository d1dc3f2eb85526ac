/**
 * What the ACP adapter adds per streamed chunk (issue 30). One text delta at a time goes into a
 * real PiClient on an in-memory stream transport; the client's own event handling is the time
 * from the record entering the transport to the client's listener; the adapter's is the time from
 * that event to the `session/update` line the agent writes on its output (what `pi-kit-acp`
 * writes on stdout): translation, the SDK's JSON-RPC framing and the write. The agent is the
 * real one (`connectAcpAgent`), with a session opened by `initialize` and `session/new` whose pi
 * is this file, answering the few commands `session/new` sends. p50 of each, and their ratio.
 */
import { connectAcpAgent, type SessionBackend } from "@pi-kit/acp";
import { createStreamTransport, PiClient } from "@pi-kit/client";
import { median } from "../client/timing.ts";
import { quick, report } from "../lib/measure.ts";

const CHUNKS = quick ? 2_000 : 20_000;
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const line = (record: unknown): Uint8Array => encoder.encode(`${JSON.stringify(record)}\n`);
const start = line({
  type: "message_start",
  message: { role: "assistant", content: [], usage: {}, stopReason: "pending", timestamp: 0 },
});
const delta = (i: number): Uint8Array =>
  line({
    type: "message_update",
    assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: `word${i} ` },
  });

/** What this stand-in pi answers. */
const MODEL = {
  id: "m",
  name: "M",
  provider: "p",
  api: "x",
  baseUrl: "",
  reasoning: false,
  input: ["text"],
  contextWindow: 1000,
  maxTokens: 100,
  cost: {},
};
const ANSWERS: Record<string, unknown> = {
  get_state: {
    model: MODEL,
    thinkingLevel: "off",
    isStreaming: false,
    isCompacting: false,
    steeringMode: "all",
    followUpMode: "all",
    sessionId: "bench",
    autoCompactionEnabled: false,
    messageCount: 0,
    pendingMessageCount: 0,
  },
  get_available_models: { models: [MODEL] },
  get_available_thinking_levels: { levels: ["off"] },
};

/** A client whose transport takes records from `push` and answers its commands as pi would. */
function standInPi(): { client: PiClient; push(bytes: Uint8Array): void } {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const readable = new ReadableStream<Uint8Array>({ start: (c) => (controller = c) });
  const writable = new WritableStream<Uint8Array>({
    write(bytes) {
      for (const text of decoder.decode(bytes).split("\n")) {
        if (text === "") continue;
        const command = JSON.parse(text) as { id?: string; type: string };
        controller.enqueue(
          line({
            type: "response",
            id: command.id,
            command: command.type,
            success: true,
            data: ANSWERS[command.type],
          }),
        );
      }
    },
  });
  const client = new PiClient(createStreamTransport({ readable, writable }), { capabilities: "1" });
  return { client, push: (bytes) => controller.enqueue(bytes) };
}

/** Per chunk: ms from the record entering the transport to the client's event. */
async function clientLatencies(): Promise<number[]> {
  const { client, push } = standInPi();
  const times: number[] = [];
  let wake: () => void = () => {};
  let sent = 0;
  client.onEvent(() => {
    times.push(performance.now() - sent);
    wake();
  });
  push(start);
  for (let i = 0; i < CHUNKS; i++) {
    const seen = new Promise<void>((resolve) => (wake = resolve));
    sent = performance.now();
    push(delta(i));
    await seen;
  }
  await client.close();
  return times.slice(1);
}

/** Per chunk: ms from the client's event to the agent's `session/update` line on its output. */
async function adapterLatencies(): Promise<number[]> {
  const pi = standInPi();
  const times: number[] = [];
  let event = 0;
  let wake: (text: string) => void = () => {};
  // Registered before the session's own listener, so it sees each event first.
  pi.client.onEvent(() => {
    event = performance.now();
  });
  const output = new WritableStream<Uint8Array>({
    write(bytes) {
      const now = performance.now();
      const text = decoder.decode(bytes);
      if (text.includes('"session/update"')) times.push(now - event);
      wake(text);
    },
  });
  let editor!: ReadableStreamDefaultController<Uint8Array>;
  const input = new ReadableStream<Uint8Array>({ start: (c) => (editor = c) });
  const backend: SessionBackend = {
    stores: false,
    create: () =>
      Promise.resolve({ id: "bench", client: pi.client, shared: undefined, title: undefined }),
    open: () => Promise.resolve(undefined),
    list: () => Promise.resolve({ sessions: [], nextCursor: null }),
  };
  const connection = connectAcpAgent({ backend }, output, input);
  const reply = (id: number): Promise<void> =>
    new Promise((resolve) => {
      wake = (text) => {
        if (text.includes(`"id":${id}`)) resolve();
      };
    });
  let answered = reply(1);
  editor.enqueue(
    line({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1 } }),
  );
  await answered;
  answered = reply(2);
  editor.enqueue(
    line({ jsonrpc: "2.0", id: 2, method: "session/new", params: { cwd: "/", mcpServers: [] } }),
  );
  await answered;
  pi.push(start);
  for (let i = 0; i < CHUNKS; i++) {
    const written = new Promise<void>((resolve) => (wake = () => resolve()));
    pi.push(delta(i));
    await written;
  }
  editor.close();
  await connection.closed;
  return times;
}

// A warm-up of each path, then the measured runs.
await clientLatencies();
await adapterLatencies();
const client = median(await clientLatencies());
const adapterTimes = await adapterLatencies();
if (adapterTimes.length !== CHUNKS)
  throw new Error(`${adapterTimes.length} updates for ${CHUNKS} chunks`);
const adapter = median(adapterTimes);
console.log(
  `${CHUNKS} text deltas one at a time: client event handling p50 ${(client * 1000).toFixed(1)} µs; adapter (client event -> session/update written) p50 ${(adapter * 1000).toFixed(1)} µs (${(adapter / client).toFixed(2)}x the client's)`,
);
report("acp adapter per streamed chunk", [
  { name: "adapter p50 per streamed chunk", value: adapter, op: "<=", target: 1, unit: " ms" },
]);
