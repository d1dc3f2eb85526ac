/**
 * Run snapshot benchmark: what keeping the run in progress costs the bridge per record of pi's
 * stdout (`RunRecorder.observe`, run on every record the bridge relays), on a 2000-word answer in
 * each wire format: pi 1.x (deltas) and pi 0.73 (every update repeats the whole message, twice),
 * printed beside the parse of the same records that every client does anyway (measured in the
 * same run). Target: at most 5% of the bridge's 1 ms p50 budget per record (relay.bench.ts).
 *
 * Run on Node 22: node --conditions=@pi-kit/source bench/bridge/run-recorder.bench.ts
 */
import { RunRecorder } from "../../packages/bridge/src/sessions/run-recorder.ts";
import { quick, report } from "../lib/measure.ts";

const WORDS = quick ? 500 : 2000;
const ROUNDS = quick ? 3 : 9;
const usage = { input: 20, output: 7, cacheRead: 0, cacheWrite: 0, totalTokens: 27 };
const message = (text: string) => ({
  role: "assistant",
  content: text === "" ? [] : [{ type: "text", text }],
  api: "openai-completions",
  provider: "pikit",
  model: "scripted",
  usage,
  stopReason: "stop",
  timestamp: 1,
});

/** The records of one streamed answer of `WORDS` words, as pi of `wire` writes them. */
function answer(wire: "1" | "0.73"): string[] {
  const lines = [
    JSON.stringify({ type: "agent_start" }),
    JSON.stringify({ type: "message_start", message: message("") }),
  ];
  let text = "";
  for (let i = 0; i < WORDS; i++) {
    const delta = `word${i} `;
    text += delta;
    const step = { type: "text_delta", contentIndex: 0, delta };
    lines.push(
      wire === "1"
        ? JSON.stringify({ type: "message_update", usage, assistantMessageEvent: step })
        : JSON.stringify({
            type: "message_update",
            assistantMessageEvent: { ...step, partial: message(text) },
            message: message(text),
          }),
    );
  }
  lines.push(JSON.stringify({ type: "message_end", message: message(text) }));
  return lines;
}

/** The median over rounds of the µs per record that `each` takes over `lines`. */
function perRecord(lines: readonly string[], each: (line: string) => void): number {
  const times: number[] = [];
  for (let round = -1; round < ROUNDS; round++) {
    const start = performance.now();
    for (const line of lines) each(line);
    if (round >= 0) times.push(((performance.now() - start) * 1000) / lines.length);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] as number;
}

const checks = [];
for (const wire of ["1", "0.73"] as const) {
  const lines = answer(wire);
  const recorder = new RunRecorder();
  const observe = perRecord(lines, (line) => recorder.observe(line));
  const parse = perRecord(lines, (line) => JSON.parse(line));
  console.log(
    `pi ${wire}: ${lines.length} records; the recorder ${observe.toFixed(2)} µs per record, ` +
      `a client's JSON.parse ${parse.toFixed(2)} µs, ${(observe / parse).toFixed(2)}x (medians of ${ROUNDS})`,
  );
  checks.push({
    name: `pi ${wire} wire: recorder per record (5% of the bridge's 1 ms p50 budget at most)`,
    value: observe,
    op: "<=" as const,
    target: 50,
    unit: " µs",
  });
}
report("keeping the run in progress (run snapshot)", checks);
