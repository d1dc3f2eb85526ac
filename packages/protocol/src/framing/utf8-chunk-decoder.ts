/**
 * Decodes UTF-8 chunk by chunk, carrying a character cut by a chunk border into the next chunk.
 *
 * `TextDecoder` can do this itself with `{ stream: true }`, but engines take a slow path for it
 * (about 7x slower than a one-shot decode in Node 20), so the carry is handled here and every
 * chunk goes through the fast one-shot decode. Invalid bytes become U+FFFD, as with `TextDecoder`.
 */
export class Utf8ChunkDecoder {
  readonly #decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  /** The start of a character cut by the last chunk border (at most 3 bytes). */
  #carry: Uint8Array | null = null;

  /** Decodes a chunk, holding back a trailing incomplete character. */
  decode(bytes: Uint8Array): string {
    let prefix = "";
    let offset = 0;
    const carry = this.#carry;
    if (carry !== null) {
      const need = sequenceLength(carry[0] as number) - carry.length;
      offset = Math.min(need, bytes.length);
      const joined = new Uint8Array(carry.length + offset);
      joined.set(carry);
      joined.set(bytes.subarray(0, offset), carry.length);
      if (offset < need) {
        this.#carry = joined;
        return "";
      }
      this.#carry = null;
      prefix = this.#decoder.decode(joined);
    }
    const end = completeLength(bytes, offset);
    if (end < bytes.length) this.#carry = bytes.slice(end);
    return prefix + this.#decoder.decode(bytes.subarray(offset, end));
  }

  /** Returns what is left at the end of the input (U+FFFD for a cut character) and resets. */
  flush(): string {
    const carry = this.#carry;
    this.#carry = null;
    return carry === null ? "" : this.#decoder.decode(carry);
  }
}

/** Bytes in the sequence a lead byte starts; 1 for ASCII and for bytes that cannot lead. */
function sequenceLength(lead: number): number {
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  if (lead >= 0xe0) return lead <= 0xef ? 3 : 1;
  if (lead >= 0xc2) return 2;
  return 1;
}

/** Length of `bytes` without a trailing incomplete sequence (only the last 3 bytes are examined). */
function completeLength(bytes: Uint8Array, from: number): number {
  const length = bytes.length;
  let i = length - 1;
  while (i >= from && i > length - 4 && ((bytes[i] as number) & 0xc0) === 0x80) i--;
  if (i < from) return length;
  return length - i < sequenceLength(bytes[i] as number) ? i : length;
}
