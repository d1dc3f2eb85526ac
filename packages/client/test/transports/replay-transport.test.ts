import assert from "node:assert/strict";
import { test } from "node:test";
import { formatTranscriptEntry, type TranscriptEntry } from "@pi-kit/protocol";
import {
  createReplayTransport,
  createStreamTransport,
  recordTransport,
  type TransportFrame,
  type TransportFrames,
} from "../../src/transports/index.ts";
import { frameReader } from "../support/frame-reader.ts";

const transcript: TranscriptEntry[] = [
  { t: 0, dir: "out", record: '{"id":"req_1","type":"get_state"}' },
  {
    t: 1000,
    dir: "in",
    record: '{"type":"response","id":"req_1","command":"get_state","success":true}',
  },
  { t: 2000, dir: "in", record: '{"type":"agent_start"}' },
];

/** Reads every frame, noting when each arrived (ms since `start`). */
async function readTimed(readable: ReadableStream<TransportFrames>, start: number) {
  const frames: { at: number; frame: TransportFrame }[] = [];
  for await (const batch of readable) {
    for (const frame of batch) frames.push({ at: performance.now() - start, frame });
  }
  return frames;
}

test("replay: plays in records with their recorded timing, scaled by speed", async () => {
  const start = performance.now();
  const transport = createReplayTransport(transcript, { speed: 10 });
  const reading = readTimed(transport.readable, start);
  const writer = transport.writable.getWriter();
  await writer.write('{"id":"req_1","type":"get_state"}\n');
  const frames = await reading;
  assert.deepEqual(
    frames.map((f) => f.frame),
    transcript.filter((e) => e.dir === "in").map((e) => e.record),
  );
  const [response, event] = frames;
  // Recorded at 1 and 2 s; at speed 10 that is 100 and 200 ms (real time would be 1 and 2 s). The
  // upper bounds leave a loaded machine's timers most of the gap to real time.
  assert.ok(
    response !== undefined && response.at >= 95 && response.at < 600,
    `response at ${response?.at}`,
  );
  assert.ok(event !== undefined && event.at >= 195 && event.at < 1200, `event at ${event?.at}`);
  assert.deepEqual(await transport.closed, { reason: "eof" });
});

test("replay: Infinity plays as fast as possible, from a transcript string", async () => {
  const long: TranscriptEntry[] = [
    ...transcript,
    { t: 60_000, dir: "in", record: '{"type":"agent_end"}' },
  ];
  const start = performance.now();
  const transport = createReplayTransport(long.map(formatTranscriptEntry).join(""), {
    speed: Number.POSITIVE_INFINITY,
  });
  const reading = readTimed(transport.readable, start);
  await transport.writable.getWriter().write('{"id":"req_1","type":"get_state"}');
  const frames = await reading;
  assert.equal(frames.length, 3);
  // Far from the recorded minute, with room for a loaded machine.
  assert.ok(performance.now() - start < 1000);
});

test("replay: responses wait for their request, with the client's own ids", async () => {
  const transport = createReplayTransport(transcript, { speed: Number.POSITIVE_INFINITY });
  const reader = frameReader(transport.readable);
  const first = reader.read();
  const early = await Promise.race([first, new Promise((r) => setTimeout(() => r("nothing"), 30))]);
  assert.equal(early, "nothing", "nothing may arrive before the request is written");
  const writer = transport.writable.getWriter();
  await writer.write('{"id":"7","type":"get_state"}\n');
  const { value } = await first;
  assert.equal(typeof value, "string");
  assert.deepEqual(JSON.parse(value as string), {
    type: "response",
    id: "7",
    command: "get_state",
    success: true,
  });
  assert.deepEqual(transport.written, ['{"id":"7","type":"get_state"}']);
  assert.deepEqual(transport.expected, ['{"id":"req_1","type":"get_state"}']);
  await transport.close();
});

test("replay: waitForWrites false plays regardless; keepOpen holds the channel until close", async () => {
  const transport = createReplayTransport(transcript, {
    speed: Number.POSITIVE_INFINITY,
    waitForWrites: false,
    keepOpen: true,
  });
  const reader = frameReader(transport.readable);
  assert.equal((await reader.read()).value, transcript[1]?.record);
  assert.equal((await reader.read()).value, transcript[2]?.record);
  const pending = await Promise.race([
    transport.closed,
    new Promise((r) => setTimeout(() => r("open"), 20)),
  ]);
  assert.equal(pending, "open");
  assert.deepEqual(await transport.close(), { reason: "closed" });
  assert.equal((await reader.read()).done, true);
  await assert.rejects(transport.writable.getWriter().write("{}"));
});

test("replay: an abort signal stops the playback", async () => {
  const controller = new AbortController();
  const transport = createReplayTransport([{ t: 10_000, dir: "in", record: '{"type":"late"}' }], {
    signal: controller.signal,
  });
  controller.abort(new Error("enough"));
  const info = await transport.closed;
  assert.equal(info.reason, "closed");
  assert.equal((info.error as Error).message, "enough");
  assert.equal((await frameReader(transport.readable).read()).done, true);
});

test("record: a recorded session replays the same", async () => {
  const toClient = new TransformStream<string, string>();
  const toPeer = new TransformStream<Uint8Array, Uint8Array>();
  const entries: TranscriptEntry[] = [];
  let clock = 0;
  const transport = recordTransport(
    createStreamTransport({ readable: toClient.readable, writable: toPeer.writable }),
    (entry) => entries.push(entry),
    { now: () => clock },
  );
  const peer = toClient.writable.getWriter();
  const peerReader = toPeer.readable.getReader();
  const reader = frameReader(transport.readable);
  const writer = transport.writable.getWriter();

  clock = 5;
  const sent = peerReader.read();
  await writer.write('{"id":"1","type":"get_state"}\n');
  await sent;
  clock = 40;
  void peer.write('{"type":"response","id":"1","command":"get_state","success":true}\n');
  await reader.read();
  clock = 55;
  void peer.write('{"type":"agent_start"}\n');
  await reader.read();

  assert.deepEqual(entries, [
    { t: 5, dir: "out", record: '{"id":"1","type":"get_state"}' },
    {
      t: 40,
      dir: "in",
      record: '{"type":"response","id":"1","command":"get_state","success":true}',
    },
    { t: 55, dir: "in", record: '{"type":"agent_start"}' },
  ]);
  await transport.close();
  assert.deepEqual(await transport.closed, { reason: "closed" });

  const replay = createReplayTransport(entries.map(formatTranscriptEntry).join(""), {
    speed: Number.POSITIVE_INFINITY,
  });
  await replay.writable.getWriter().write('{"id":"1","type":"get_state"}\n');
  const played: TransportFrame[] = [];
  for await (const batch of replay.readable) played.push(...batch);
  assert.deepEqual(
    played,
    entries.filter((e) => e.dir === "in").map((e) => e.record),
  );
});

test("record: a throwing sink does not break the session", async () => {
  const replay = createReplayTransport(transcript, { speed: Number.POSITIVE_INFINITY });
  const transport = recordTransport(replay, () => {
    throw new Error("disk full");
  });
  await transport.writable.getWriter().write('{"id":"req_1","type":"get_state"}\n');
  const frames: TransportFrame[] = [];
  for await (const batch of transport.readable) frames.push(...batch);
  assert.equal(frames.length, 2);
  // Everything else is the wrapped transport's own.
  assert.equal(transport.written, replay.written);
});
