/**
 * Transcripts: a recorded pi RPC conversation, one entry per record, with its timing.
 * Stored as JSONL (one {@link TranscriptEntry} per line) so a transcript is itself streamable.
 */

/** Which way a record travelled: `in` from pi to the client, `out` from the client to pi. */
export type TranscriptDirection = "in" | "out";

/** One recorded record. */
export interface TranscriptEntry {
  /** Milliseconds since the recording started. */
  readonly t: number;
  /** Which way the record travelled. */
  readonly dir: TranscriptDirection;
  /** The raw record text, without its LF. */
  readonly record: string;
}

/** Serialises one entry as a transcript line (JSON plus LF). */
export function formatTranscriptEntry(entry: TranscriptEntry): string {
  return `${JSON.stringify({ t: entry.t, dir: entry.dir, record: entry.record })}\n`;
}

/** Parses a whole transcript; throws a `TypeError` naming the line when one is malformed. */
export function parseTranscript(text: string): TranscriptEntry[] {
  const entries: TranscriptEntry[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (cause) {
      throw new TypeError(`Transcript line ${i + 1} is not JSON`, { cause });
    }
    if (!isEntry(value)) {
      throw new TypeError(`Transcript line ${i + 1} is not a {t, dir, record} entry`);
    }
    entries.push(value);
  }
  return entries;
}

function isEntry(value: unknown): value is TranscriptEntry {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.t === "number" && (v.dir === "in" || v.dir === "out") && typeof v.record === "string"
  );
}
