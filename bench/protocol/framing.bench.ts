/**
 * Framing benchmark (issue 2): our JsonlDecoder against JSON.parse alone and against pi's own
 * reader, on a recorded pi 1.x event stream and on one huge record. Ratios come from one run.
 */
import { spawnSync } from "node:child_process";
import { JsonlDecoder } from "@pi-kit/protocol";
import { chunksOf, recordedInbound, streamOf } from "../lib/fixtures.ts";
import { compareMs, medianMs, quick, report } from "../lib/measure.ts";
import { piReader } from "../lib/pi-reader.ts";

const CHUNK = 64 * 1024;
const MiB = 1024 * 1024;

// 1. Throughput on a recorded 1.x stream, decoded and parsed.
const { lines, data } = streamOf(recordedInbound("pi-1.6.0"), (quick ? 4 : 32) * MiB);
const chunks = chunksOf(data, CHUNK);
const pieces = chunksOf(data, 16 * 1024);
let sink = 0;
const {
  floor,
  ours,
  pi: pis,
  utf8,
} = compareMs({
  floor: () => {
    for (const line of lines) sink += JSON.parse(line) === null ? 0 : 1;
  },
  // The one step no byte decoder can skip: UTF-8 to text. In 16 KiB pieces, as ours does, which
  // is about twice as fast as whole 64 KiB chunks here (pure-ASCII pieces take the fast path).
  utf8: () => {
    const text = new TextDecoder();
    for (const piece of pieces) sink += text.decode(piece).length;
  },
  ours: () => {
    const decoder = new JsonlDecoder();
    for (const chunk of chunks) {
      for (const record of decoder.push(chunk)) sink += JSON.parse(record) ? 1 : 0;
    }
  },
  pi: () => piReader(chunks, (line) => (sink += JSON.parse(line) ? 1 : 0)),
});
const mbps = (ms: number) => data.length / MiB / (ms / 1000);
console.log(
  `stream: ${(data.length / MiB).toFixed(1)} MiB, ${lines.length} records; JSON.parse alone ${mbps(floor).toFixed(0)} MiB/s, ours ${mbps(ours).toFixed(0)} MiB/s, pi's reader ${mbps(pis).toFixed(0)} MiB/s`,
);
console.log(
  `UTF-8 decoding alone takes ${utf8.toFixed(1)} ms against ${floor.toFixed(1)} ms of parsing: a decoder that split records for free would reach ${(floor / (floor + utf8)).toFixed(2)}x of JSON.parse alone`,
);

// 2. One huge record in 64 KiB chunks against the same record in one chunk.
const size = (quick ? 4 : 64) * MiB;
const record = new TextEncoder().encode(`{"d":"${"x".repeat(size - 8)}"}\n`);
const recordChunks = chunksOf(record, CHUNK);
// `read` also touches the middle of the record, which makes the engine flatten a rope: the
// honest cost for a consumer, who reads the record it gets.
const decodeAll = (input: Uint8Array[], read: boolean) => () => {
  const decoder = new JsonlDecoder({ maxRecordBytes: 2 * size });
  for (const chunk of input) {
    for (const r of decoder.push(chunk)) sink += read ? r.charCodeAt(r.length >> 1) : r.length;
  }
};
const oursOne = medianMs(decodeAll([record], false));
const oursChunked = medianMs(decodeAll(recordChunks, false));
const oursOneRead = medianMs(decodeAll([record], true));
const oursChunkedRead = medianMs(decodeAll(recordChunks, true));
const piOne = medianMs(() => piReader([record], (l) => (sink += l.length)), 1);
const piChunked = medianMs(() => piReader(recordChunks, (l) => (sink += l.length)), 1);
console.log(
  `huge record: ${size / MiB} MiB; ours ${oursOne.toFixed(1)} ms in one chunk, ${oursChunked.toFixed(1)} ms in 64 KiB chunks (${oursOneRead.toFixed(1)} / ${oursChunkedRead.toFixed(1)} ms with a first read); pi's reader ${piOne.toFixed(1)} ms / ${piChunked.toFixed(0)} ms`,
);

// 3. Peak memory of decoding the huge record, in a fresh process so nothing else is counted.
const probe = spawnSync(
  process.execPath,
  [...process.execArgv, new URL("./huge-record-memory.ts", import.meta.url).pathname, String(size)],
  { encoding: "utf8" },
);
if (probe.status !== 0) throw new Error(`memory probe failed: ${probe.stderr}`);
const peak = Number(probe.stdout.trim());
console.log(`huge record peak memory: ${(peak / MiB).toFixed(0)} MiB above baseline`);

report("framing", [
  {
    name: "decode+parse throughput vs JSON.parse alone",
    value: floor / ours,
    op: ">=",
    target: 0.85,
    unit: "x",
  },
  {
    name: "decode+parse throughput vs pi's reader",
    value: pis / ours,
    op: ">=",
    target: 1.0,
    unit: "x",
  },
  {
    name: "huge record chunked vs one chunk (time)",
    value: oursChunked / oursOne,
    op: "<=",
    target: 1.5,
    unit: "x",
  },
  {
    name: "the same, including the consumer's first read",
    value: oursChunkedRead / oursOneRead,
    op: "<=",
    target: 2,
    unit: "x (informative)",
  },
  {
    name: "huge record chunked: ours faster than pi's reader by",
    value: piChunked / oursChunked,
    op: ">=",
    target: quick ? 1 : 50,
    unit: "x",
  },
  {
    name: "huge record peak memory / record size",
    value: peak / size,
    op: "<=",
    target: 3,
    unit: "x",
  },
]);
if (sink < 0) console.log(sink);
