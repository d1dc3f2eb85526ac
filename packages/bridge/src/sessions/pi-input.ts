/**
 * What the bridge writes to one session's pi, the counterpart of {@link PiOutput}. A client's
 * records are bounded: past `maxBytes` written and not yet taken by pi's stdin, the write is
 * refused and the caller sheds the client, so a client that sends faster than pi reads cannot
 * grow the bridge's memory. The bridge's own commands (few and small) go past the bound.
 */
import type { PiOutput } from "./pi-output.ts";

/** The writing side of one session's pi. */
export class PiInput {
  readonly #writer: WritableStreamDefaultWriter<string>;
  readonly #maxBytes: number;
  /** What was written and not yet taken by pi's stdin (by string length). */
  #queued = 0;
  #lastInputAt = Date.now();

  constructor(stdin: WritableStream<string>, maxBytes: number) {
    this.#writer = stdin.getWriter();
    this.#maxBytes = maxBytes;
  }

  /** When a client last wrote to pi (`Date.now()` time); pi's side is {@link PiOutput.lastRecordAt}. */
  get lastInputAt(): number {
    return this.#lastInputAt;
  }

  /**
   * Writes a client's record as one line. Returns `false`, writing nothing, when pi's input has
   * backed up past `maxBytes`.
   */
  write(line: string): boolean {
    const size = line.length;
    if (this.#queued + size > this.#maxBytes) return false;
    this.#queued += size;
    this.#lastInputAt = Date.now();
    const written = () => {
      // Also when pi is gone: its exit, reported through the session, says why.
      this.#queued -= size;
    };
    this.#writer.write(`${line}\n`).then(written, written);
    return true;
  }

  /** Writes the bridge's own `text` (its lines already ended) as is, outside the bound. */
  writeRaw(text: string): Promise<void> {
    return this.#writer.write(text);
  }
}
