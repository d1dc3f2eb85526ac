const LF = 0x0a;

/**
 * The last `capacity` bytes of a byte stream (pi's stderr), in a fixed buffer: memory stays
 * bounded however much pi logs, unlike pi's own client, which keeps all of it.
 */
export class StderrRing {
  readonly #buffer: Uint8Array;
  /** Index of the oldest byte kept. */
  #start = 0;
  #length = 0;
  /** True once older bytes were overwritten, so the text starts mid-line. */
  #trimmed = false;

  constructor(capacity: number) {
    if (!(capacity >= 0) || !Number.isInteger(capacity)) {
      throw new RangeError(`stderrBufferBytes must be a non-negative integer, got ${capacity}`);
    }
    this.#buffer = new Uint8Array(capacity);
  }

  /** Appends a chunk, overwriting the oldest bytes when full. */
  push(chunk: Uint8Array): void {
    const capacity = this.#buffer.length;
    if (chunk.length === 0 || capacity === 0) {
      if (chunk.length > 0) this.#trimmed = true;
      return;
    }
    if (chunk.length >= capacity) {
      this.#buffer.set(chunk.subarray(chunk.length - capacity));
      this.#start = 0;
      this.#trimmed ||= chunk.length > capacity || this.#length > 0;
      this.#length = capacity;
      return;
    }
    const end = (this.#start + this.#length) % capacity;
    const first = Math.min(chunk.length, capacity - end);
    this.#buffer.set(chunk.subarray(0, first), end);
    this.#buffer.set(chunk.subarray(first), 0);
    const overflow = this.#length + chunk.length - capacity;
    if (overflow > 0) {
      this.#start = (this.#start + overflow) % capacity;
      this.#length = capacity;
      this.#trimmed = true;
    } else {
      this.#length += chunk.length;
    }
  }

  /** The kept bytes as text; once trimmed, it starts after the first LF so no line is cut. */
  text(): string {
    const capacity = this.#buffer.length;
    const bytes = new Uint8Array(this.#length);
    const first = Math.min(this.#length, capacity - this.#start);
    bytes.set(this.#buffer.subarray(this.#start, this.#start + first));
    bytes.set(this.#buffer.subarray(0, this.#length - first), first);
    let from = 0;
    if (this.#trimmed) {
      const lf = bytes.indexOf(LF);
      // One endless line: keep it, minus a UTF-8 sequence cut in half.
      if (lf !== -1 && lf < bytes.length - 1) from = lf + 1;
      else while (from < bytes.length && ((bytes[from] as number) & 0xc0) === 0x80) from++;
    }
    return new TextDecoder().decode(bytes.subarray(from));
  }
}
