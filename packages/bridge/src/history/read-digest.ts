/**
 * Reads a session file into a {@link FileDigest}: from the start, or, when the file only grew
 * since the last digest (same first line, a line end where that digest stopped), from there on.
 */
import { type FileHandle, open } from "node:fs/promises";
import { DigestBuilder, type FileDigest, hashLine } from "./file-digest.ts";

/** Bytes read per chunk. */
const CHUNK_BYTES = 256 * 1024;
const LF = 0x0a;

/** A digest and the bytes the file had when it was read to its end. */
export interface DigestRead {
  readonly digest: FileDigest;
  /** Bytes read in all: past `digest.parsedBytes` when the last line has no LF. */
  readonly size: number;
}

/**
 * Digests the file at `path`, continuing `previous` when the file has only grown since.
 * Throws the file system's error when the file cannot be read.
 */
export async function readDigest(path: string, previous?: FileDigest): Promise<DigestRead> {
  const handle = await open(path, "r");
  try {
    const resume = previous !== undefined && (await continues(handle, previous));
    return await digestFrom(handle, resume ? previous : undefined);
  } finally {
    await handle.close();
  }
}

/** Whether the file still starts with the digest's first line and has a line end where it stopped. */
async function continues(handle: FileHandle, previous: FileDigest): Promise<boolean> {
  if (previous.parsedBytes === 0) return false;
  const head = new Uint8Array(previous.headBytes);
  const { bytesRead } = await handle.read(head, 0, head.length, 0);
  if (bytesRead !== head.length || head[head.length - 1] !== LF) return false;
  if (hashLine(new TextDecoder().decode(head.subarray(0, -1))) !== previous.headHash) return false;
  const end = new Uint8Array(1);
  const last = await handle.read(end, 0, 1, previous.parsedBytes - 1);
  return last.bytesRead === 1 && end[0] === LF;
}

async function digestFrom(
  handle: FileHandle,
  previous: FileDigest | undefined,
): Promise<DigestRead> {
  const builder = new DigestBuilder(previous);
  const decoder = new TextDecoder();
  let position = previous?.parsedBytes ?? 0;
  // Bytes of a line that continues into the next chunk.
  let carry = new Uint8Array(0);
  const chunk = new Uint8Array(CHUNK_BYTES);
  for (;;) {
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    let bytes = chunk.subarray(0, bytesRead);
    if (carry.length > 0) {
      const joined = new Uint8Array(carry.length + bytes.length);
      joined.set(carry);
      joined.set(bytes, carry.length);
      bytes = joined;
    }
    let start = 0;
    for (let lf = bytes.indexOf(LF); lf !== -1; lf = bytes.indexOf(LF, start)) {
      builder.line(decoder.decode(bytes.subarray(start, lf)), lf - start + 1);
      start = lf + 1;
    }
    carry = bytes.slice(start);
  }
  return { digest: builder.digest, size: position };
}
