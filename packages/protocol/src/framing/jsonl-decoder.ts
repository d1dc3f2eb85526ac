import { ProtocolError, ProtocolErrorCode } from "../errors/protocol-error.ts";
import { Utf8ChunkDecoder } from "./utf8-chunk-decoder.ts";

/** Default cap on one record: 64 MiB, far above any real pi record yet bounded. */
export const DEFAULT_MAX_RECORD_BYTES = 64 * 1024 * 1024;

/** How many characters of an oversized record its error keeps, for diagnostics. */
const RAW_PREFIX_CHARS = 256;

const LF = 0x0a;

/** Byte chunks larger than this are scanned in segments of this size (see `#scanSegments`). */
const SEGMENT_BYTES = 16 * 1024;

/** Options for {@link JsonlDecoder} and {@link JsonlDecoderStream}. */
export interface JsonlDecoderOptions {
  /** Largest record accepted, in UTF-8 bytes as received (any CR counts, the LF does not); larger ones are skipped. Defaults to 64 MiB. */
  maxRecordBytes?: number;
  /**
   * Receives an oversized record's error, in stream order. Without it, `push` throws the error
   * once the chunk is consumed and returns that chunk's records on the next call.
   */
  onError?: (error: ProtocolError) => void;
}

/**
 * Strict JSONL framing as pi speaks it: records end at LF only, one trailing CR is stripped,
 * U+2028/U+2029 never split a record, and multi-byte UTF-8 survives any chunk border.
 *
 * Linear in the input: each chunk is decoded and scanned once, and a record spanning chunks is
 * grown by string concatenation, which engines keep as a rope (no copy) until it is first read,
 * so a huge record in small chunks is never rescanned or recopied (pi's own reader rescans its
 * whole buffer per chunk: quadratic).
 *
 * @example
 * ```ts
 * const decoder = new JsonlDecoder({ maxRecordBytes: 1 << 20 });
 * for (const record of decoder.push(chunk)) handle(JSON.parse(record));
 * for (const record of decoder.end()) handle(JSON.parse(record));
 * ```
 */
export class JsonlDecoder {
  readonly #maxRecordBytes: number;
  readonly #onError: ((error: ProtocolError) => void) | undefined;
  readonly #utf8 = new Utf8ChunkDecoder();
  /** The record not yet terminated; never searched, only appended to. */
  #pending = "";
  /** Whether the last non-empty piece appended to `#pending` ends with CR. */
  #pendingEndsWithCr = false;
  /** The first characters of `#pending`, kept flat for error messages. */
  #pendingHead = "";
  /** Size of `#pending` in UTF-8 bytes: exact for byte input, an upper bound for text. */
  #pendingBytes = 0;
  /** True once the pending size was measured exactly, so later text pieces are measured too. */
  #measured = false;
  /** True while discarding the rest of an oversized record up to its LF. */
  #skipping = false;
  /** Records completed by a chunk whose error was thrown; returned by the next call. */
  #carried: string[] = [];

  constructor(options: JsonlDecoderOptions = {}) {
    const max = options.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES;
    if (!(max > 0)) throw new RangeError(`maxRecordBytes must be positive, got ${max}`);
    this.#maxRecordBytes = max;
    this.#onError = options.onError;
  }

  /** Consumes a chunk and returns the records it completed, in order. */
  push(chunk: Uint8Array | string): string[] {
    const records = this.#takeCarried();
    const errors: ProtocolError[] = [];
    this.scan(
      chunk,
      (record) => records.push(record),
      (error) => errors.push(error),
    );
    return this.#deliver(records, errors);
  }

  /** Flushes the last record if the input ended without an LF, and resets the decoder. */
  end(): string[] {
    const records = this.#takeCarried();
    const errors: ProtocolError[] = [];
    this.finish(
      (record) => records.push(record),
      (error) => errors.push(error),
    );
    return this.#deliver(records, errors);
  }

  /**
   * Consumes a chunk, calling `onRecord` and `onError` in stream order. This is the callback form
   * of {@link JsonlDecoder.push} for transports that must keep errors in sequence with records.
   */
  scan(
    chunk: Uint8Array | string,
    onRecord: (record: string) => void,
    onError: (error: ProtocolError) => void,
  ): void {
    if (typeof chunk === "string") this.#scanChunk(chunk, null, onRecord, onError);
    else if (chunk.length > SEGMENT_BYTES) this.#scanSegments(chunk, onRecord, onError);
    else this.#scanChunk(this.#utf8.decode(chunk), chunk, onRecord, onError);
  }

  /** Scans one chunk's text; `bytes` is the chunk it was decoded from, if any. */
  #scanChunk(
    text: string,
    bytes: Uint8Array | null,
    onRecord: (record: string) => void,
    onError: (error: ProtocolError) => void,
  ): void {
    // A UTF-16 unit is at most 3 UTF-8 bytes, so this bounds what the chunk can add.
    const bound = bytes === null ? text.length * 3 : bytes.length;
    if (!this.#skipping && this.#pendingBytes + bound <= this.#maxRecordBytes) {
      this.#scanFast(text, bytes, onRecord);
    } else {
      this.#scanMeasured(text, bytes, onRecord, onError);
    }
  }

  /**
   * Scans a large chunk in fixed-size segments. Engines decode pure-ASCII bytes several times
   * faster than anything else, and one non-ASCII character would otherwise send the whole chunk
   * down the slow path. Cuts need no alignment: a record spanning segments is pending text like
   * one spanning chunks, and the UTF-8 decoder carries a character cut in two.
   */
  #scanSegments(
    bytes: Uint8Array,
    onRecord: (record: string) => void,
    onError: (error: ProtocolError) => void,
  ): void {
    for (let start = 0; start < bytes.length; start += SEGMENT_BYTES) {
      const segment = bytes.subarray(start, start + SEGMENT_BYTES);
      this.#scanChunk(this.#utf8.decode(segment), segment, onRecord, onError);
    }
  }

  /** Ends the input in callback form: see {@link JsonlDecoder.end}. */
  finish(onRecord: (record: string) => void, onError: (error: ProtocolError) => void): void {
    const tail = this.#utf8.flush();
    if (tail !== "") this.scan(tail, onRecord, onError);
    if (!this.#skipping && this.#pending !== "") this.#complete("", onRecord);
    this.#reset();
    this.#skipping = false;
  }

  /** The hot path: no record in this chunk can reach the limit, so sizes need no counting. */
  #scanFast(text: string, bytes: Uint8Array | null, onRecord: (record: string) => void): void {
    let lf = text.indexOf("\n");
    if (lf === -1) {
      this.#extend(text);
      this.#pendingBytes += bytes === null ? text.length * 3 : bytes.length;
      return;
    }
    let start = 0;
    if (this.#pending !== "") {
      this.#complete(text.slice(0, lf), onRecord);
      start = lf + 1;
      lf = text.indexOf("\n", start);
    }
    while (lf !== -1) {
      const crlf = lf > start && text.charCodeAt(lf - 1) === 0x0d;
      onRecord(text.slice(start, crlf ? lf - 1 : lf));
      start = lf + 1;
      lf = text.indexOf("\n", start);
    }
    if (start < text.length) {
      this.#extend(text.slice(start));
      this.#pendingBytes =
        bytes === null ? (text.length - start) * 3 : bytes.length - bytes.lastIndexOf(LF) - 1;
    }
  }

  /**
   * The careful path, near or over the limit. When `bytes` is the chunk the text came from,
   * record sizes are counted from its LF positions (LF is never part of a multi-byte sequence,
   * so the n-th LF byte is the n-th LF character); otherwise they are measured from the text.
   */
  #scanMeasured(
    text: string,
    bytes: Uint8Array | null,
    onRecord: (record: string) => void,
    onError: (error: ProtocolError) => void,
  ): void {
    let start = 0;
    let byteStart = 0;
    for (;;) {
      const lf = text.indexOf("\n", start);
      const byteLf = bytes === null || lf === -1 ? -1 : bytes.indexOf(LF, byteStart);
      const end = lf === -1 ? text.length : lf;
      const size = bytes === null ? -1 : (byteLf === -1 ? bytes.length : byteLf) - byteStart;
      const piece = text.slice(start, end);
      if (this.#fits(piece, size, onError)) {
        if (lf === -1) this.#extend(piece);
        else this.#complete(piece, onRecord);
      }
      if (lf === -1) return;
      this.#reset();
      this.#skipping = false;
      start = lf + 1;
      byteStart = byteLf + 1;
    }
  }

  /**
   * Counts a piece against the limit; `size` is its byte length, or -1 when it came as text.
   * Reports and starts skipping the record when it goes over.
   */
  #fits(piece: string, size: number, onError: (error: ProtocolError) => void): boolean {
    if (this.#skipping) return false;
    const max = this.#maxRecordBytes;
    if (size >= 0) this.#pendingBytes += size;
    else if (this.#measured) this.#pendingBytes += utf8Length(piece, 0);
    else {
      // Measure text only when the 3-bytes-per-unit bound crosses the limit, then keep measuring.
      this.#pendingBytes += piece.length * 3;
      if (this.#pendingBytes > max) {
        this.#pendingBytes = utf8Length(this.#pending, 0) + utf8Length(piece, 0);
        this.#measured = true;
      }
    }
    if (this.#pendingBytes <= max) return true;
    const head = this.#pending === "" ? piece.slice(0, RAW_PREFIX_CHARS) : this.#pendingHead;
    this.#reset();
    this.#skipping = true;
    onError(
      new ProtocolError(
        ProtocolErrorCode.RecordTooLarge,
        `Record exceeds ${max} bytes; skipped to the next line`,
        { raw: head, detail: { maxRecordBytes: max } },
      ),
    );
    return false;
  }

  /** Appends an unterminated piece to the pending record. */
  #extend(piece: string): void {
    if (piece === "") return;
    if (this.#pending === "") this.#pendingHead = piece.slice(0, RAW_PREFIX_CHARS);
    this.#pending += piece;
    this.#pendingEndsWithCr = piece.charCodeAt(piece.length - 1) === 0x0d;
  }

  /** Emits the pending record completed by its last piece, without one trailing CR. */
  #complete(last: string, onRecord: (record: string) => void): void {
    if (last !== "") {
      const crlf = last.charCodeAt(last.length - 1) === 0x0d;
      onRecord(this.#pending + (crlf ? last.slice(0, -1) : last));
    } else {
      // The CR, if any, ended the previous chunk: trimming it reads the rope once.
      onRecord(this.#pendingEndsWithCr ? this.#pending.slice(0, -1) : this.#pending);
    }
    this.#reset();
  }

  #reset(): void {
    this.#pending = "";
    this.#pendingHead = "";
    this.#pendingEndsWithCr = false;
    this.#pendingBytes = 0;
    this.#measured = false;
  }

  #takeCarried(): string[] {
    const carried = this.#carried;
    this.#carried = [];
    return carried;
  }

  #deliver(records: string[], errors: ProtocolError[]): string[] {
    if (this.#onError !== undefined) {
      for (const error of errors) this.#onError(error);
      return records;
    }
    const [first] = errors;
    if (first === undefined) return records;
    this.#carried = records;
    throw first;
  }
}

/** UTF-8 length of `text.slice(start, end)`. */
function utf8Length(text: string, start: number, end = text.length): number {
  let bytes = end - start;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) bytes += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < end) {
      // A surrogate pair is 2 units and 4 bytes.
      bytes += 2;
      i++;
    } else bytes += 2;
  }
  return bytes;
}
