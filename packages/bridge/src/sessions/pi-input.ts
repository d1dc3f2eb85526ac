/**
 * What the bridge writes to one session's pi, the counterpart of {@link PiOutput}. A client's
 * records are bounded: past `maxBytes` written and not yet taken by pi's stdin, the write is
 * refused and the caller sheds the client, so a client that sends faster than pi reads cannot
 * grow the bridge's memory. The bridge's own commands (few and small) go past the bound. While a
 * hold is on (a checkpoint being taken before a run), clients' records wait, in order and counted
 * against the bound, and go to pi once it is off.
 */
import type { PiOutput } from "./pi-output.ts";

/** The writing side of one session's pi. */
export class PiInput {
  readonly #writer: WritableStreamDefaultWriter<string>;
  readonly #maxBytes: number;
  /** What was written and not yet taken by pi's stdin (by string length). */
  #queued = 0;
  #lastInputAt = Date.now();
  /** Clients' lines waiting for the hold to end, in order. */
  #held: string[] | undefined;
  /** The end of the current hold. */
  #holdEnd: Promise<void> = Promise.resolve();

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
    if (this.#held !== undefined) this.#held.push(line);
    else this.#send(line);
    return true;
  }

  /** Whether clients' records are held back now. */
  get holding(): boolean {
    return this.#held !== undefined;
  }

  /**
   * Holds clients' records back until `task` settles (after any hold before it), then writes
   * them in the order they came. A `line` is written first, as the hold ends: the record that
   * asked for the hold. Returns `false`, writing nothing, when `line` does not fit the bound.
   */
  hold(task: () => Promise<unknown>, line?: string): boolean {
    if (line !== undefined && this.#queued + line.length > this.#maxBytes) return false;
    if (line !== undefined) {
      this.#queued += line.length;
      this.#lastInputAt = Date.now();
    }
    // The lines that come from now on go after this hold's own; those before, with the previous hold.
    const after: string[] = [];
    this.#held = after;
    const end: Promise<void> = this.#holdEnd
      .then(task)
      .catch(() => {
        // The task reports its own failure; what waited goes to pi regardless.
      })
      .then(() => {
        if (line !== undefined) this.#send(line);
        for (const waiting of after) this.#send(waiting);
        if (this.#holdEnd === end) this.#held = undefined;
      });
    this.#holdEnd = end;
    return true;
  }

  #send(line: string): void {
    const size = line.length;
    const written = () => {
      // Also when pi is gone: its exit, reported through the session, says why.
      this.#queued -= size;
    };
    this.#writer.write(`${line}\n`).then(written, written);
  }

  /** Writes the bridge's own `text` (its lines already ended) as is, outside the bound. */
  writeRaw(text: string): Promise<void> {
    return this.#writer.write(text);
  }
}
