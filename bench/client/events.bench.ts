/**
 * Client event throughput (issue 3, first item): a recorded pi 1.x stream, repeated to a few MiB and
 * fed in 64 KiB chunks, through a real PiClient on an in-memory stream transport (framing, parse,
 * dispatch, run tracker, session model, one session subscriber and one catch-all listener),
 * against the same bytes through JsonlDecoder + JSON.parse alone. Interleaved, so the ratio comes
 * from one run on one machine state.
 *
 * The client is built with `capabilities: "1"`, so it needs no handshake and no pi. The recording's
 * responses carry ids this client never used: each is dropped with an `unmatched_response`
 * diagnostic, and that cost is counted. Its two extension dialogs are cancelled at once (no dialog
 * handler), which writes a response to the transport's sink.
 */
import { createStreamTransport, PiClient } from "@pi-kit/client";
import { JsonlDecoder, parseInbound } from "@pi-kit/protocol";
import { chunksOf, recordedInbound, streamOf } from "../lib/fixtures.ts";
import { quick, report } from "../lib/measure.ts";
import { compareMsAsync } from "./timing.ts";

const CHUNK = 64 * 1024;
const MiB = 1024 * 1024;

const { lines, data } = streamOf(recordedInbound("pi-1.6.0"), (quick ? 1 : 8) * MiB);
const chunks = chunksOf(data, CHUNK);

// Every record becomes exactly one listener call (an event or extension-UI request) or one
// diagnostic (the foreign responses); each agent_settled adds the client's own run_settled.
let expected = 0;
let eventRecords = 0;
for (const line of lines) {
  const inbound = parseInbound(line);
  expected++;
  if (inbound.kind === "event" || inbound.kind === "ui_request") eventRecords++;
  if (inbound.kind === "event" && inbound.event.type === "agent_settled") expected++;
}

let sink = 0;

/** JsonlDecoder + JSON.parse on the same chunks: the floor any client sits on. */
function decodeAndParse(): Promise<undefined> {
  const decoder = new JsonlDecoder();
  for (const chunk of chunks) {
    for (const record of decoder.push(chunk)) sink += JSON.parse(record) ? 1 : 0;
  }
  return Promise.resolve(undefined);
}

interface ClientRun {
  ms: number;
  events: number;
  diagnostics: number;
  notifications: number;
  messages: number;
}
let lastRun: ClientRun | undefined;

/** The chunks through a PiClient; resolves with the time until the last record was dispatched. */
async function throughClient(): Promise<number> {
  const start = performance.now();
  let next = 0;
  // A pull source delivers one chunk at a time when the transport asks, as a pipe would.
  const readable = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[next++];
      if (chunk !== undefined) controller.enqueue(chunk);
    },
  });
  const writable = new WritableStream<Uint8Array>({ write() {} });
  const client = new PiClient(createStreamTransport({ readable, writable }), {
    capabilities: "1",
  });
  const run: ClientRun = { ms: 0, events: 0, diagnostics: 0, notifications: 0, messages: 0 };
  let done!: () => void;
  const finished = new Promise<void>((resolve) => {
    done = resolve;
  });
  const check = (): void => {
    if (run.events + run.diagnostics === expected) done();
  };
  client.session.subscribe(() => {
    const snapshot = client.session.getSnapshot();
    run.notifications++;
    run.messages = snapshot.messages.length;
  });
  client.onEvent((event) => {
    run.events++;
    sink += event.type.length;
    check();
  });
  client.on("diagnostic", (diagnostic) => {
    run.diagnostics++;
    sink += diagnostic.kind.length;
    check();
  });
  const timeout = setTimeout(() => done(), 60_000);
  await finished;
  run.ms = performance.now() - start;
  clearTimeout(timeout);
  if (run.events + run.diagnostics !== expected) {
    throw new Error(
      `client dispatched ${run.events} events and ${run.diagnostics} diagnostics, expected ${expected} in all`,
    );
  }
  await client.close();
  lastRun = run;
  return run.ms;
}

// 15 rounds even in the quick run: the client's code needs them to be optimised at all.
const { floor, client } = await compareMsAsync(
  { floor: decodeAndParse, client: throughClient },
  15,
);

const perSecond = (ms: number) => eventRecords / (ms / 1000);
const run = lastRun as ClientRun;
console.log(
  `stream: ${(data.length / MiB).toFixed(1)} MiB in ${chunks.length} chunks, ${lines.length} records (${eventRecords} events); per run ${run.events} listener calls, ${run.diagnostics} diagnostics, ${run.notifications} session notifications, ${run.messages} messages kept`,
);
console.log(
  `decode+parse ${floor.toFixed(1)} ms (${(perSecond(floor) / 1000).toFixed(0)}k events/s); client ${client.toFixed(1)} ms (${(perSecond(client) / 1000).toFixed(0)}k events/s, ${(((client - floor) * 1000) / lines.length).toFixed(2)} µs per record over the floor)`,
);

report("client events", [
  {
    name: "client events/s vs decode+parse alone",
    value: floor / client,
    op: ">=",
    target: 0.5,
    unit: "x",
  },
]);
if (sink < 0) console.log(sink);
