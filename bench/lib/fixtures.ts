import { readdirSync, readFileSync } from "node:fs";
import { parseTranscript } from "@pi-kit/protocol";

const fixtures = new URL("../../packages/protocol/test/fixtures/", import.meta.url);

/** The inbound records of every recorded transcript of one pi version, in order. */
export function recordedInbound(version: "pi-1.6.0" | "pi-0.73.1"): string[] {
  const dir = new URL(`${version}/`, fixtures);
  const records: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (!name.endsWith(".jsonl")) continue;
    for (const entry of parseTranscript(readFileSync(new URL(name, dir), "utf8"))) {
      if (entry.dir === "in") records.push(entry.record);
    }
  }
  if (records.length === 0) throw new Error(`No recorded transcripts under ${dir.pathname}`);
  return records;
}

/** Repeats `records` until their text reaches `bytes`, returned as LF-terminated bytes. */
export function streamOf(records: string[], bytes: number): { lines: string[]; data: Uint8Array } {
  const lines: string[] = [];
  let size = 0;
  while (size < bytes) {
    for (const record of records) {
      lines.push(record);
      size += record.length + 1;
    }
  }
  return { lines, data: new TextEncoder().encode(lines.map((l) => `${l}\n`).join("")) };
}

/** Cuts `data` into chunks of `size` bytes, as a pipe would deliver it. */
export function chunksOf(data: Uint8Array, size: number): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < data.length; i += size) chunks.push(data.subarray(i, i + size));
  return chunks;
}
