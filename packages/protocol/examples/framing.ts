import { encodeRecord, JsonlDecoder, parseInbound } from "@pi-kit/protocol";

// Frame what you write to pi's stdin: JSON plus LF, and never a top-level null (it crashes pi).
const line = encodeRecord({ id: "1", type: "get_state" });

// Split what pi writes to stdout: LF only, whatever the chunk borders (here: mid-character).
const bytes = new TextEncoder().encode(
  '{"type":"agent_start"}\n{"type":"queue_update","steering":["é\u2028"],"followUp":[]}\n',
);
const decoder = new JsonlDecoder({ maxRecordBytes: 1024 * 1024 });
const records = [...decoder.push(bytes.subarray(0, 40)), ...decoder.push(bytes.subarray(40))];

for (const record of records) {
  const inbound = parseInbound(record);
  if (inbound.kind === "event") console.log("event", inbound.event.type);
}
console.log(line.trimEnd(), records.length);
