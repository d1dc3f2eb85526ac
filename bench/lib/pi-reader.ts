import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { resolvePi } from "@pi-kit/testing";

/** pi's own reader: `attachJsonlLineReader(stream, onLine)` from the installed pi 1.x. */
type AttachJsonlLineReader = (
  stream: { on(event: string, fn: (chunk?: Uint8Array) => void): void; off(): void },
  onLine: (line: string) => void,
) => () => void;

// The package exports no subpath for it, so load the file from the pi the test kit resolves.
const jsonl = pathToFileURL(join(resolvePi("1").root, "dist/modes/rpc/jsonl.js"));
const { attachJsonlLineReader } = (await import(jsonl.href)) as {
  attachJsonlLineReader: AttachJsonlLineReader;
};

/** Feeds `chunks` through pi's reader and calls `onLine` per record, with no stream overhead. */
export function piReader(chunks: Uint8Array[], onLine: (line: string) => void): void {
  let onData: (chunk?: Uint8Array) => void = () => {};
  let onEnd: (chunk?: Uint8Array) => void = () => {};
  const stream = {
    on(event: string, fn: (chunk?: Uint8Array) => void) {
      if (event === "data") onData = fn;
      else if (event === "end") onEnd = fn;
    },
    off() {},
  };
  attachJsonlLineReader(stream, onLine);
  // pi's reader expects Node Buffers (StringDecoder.write); a Uint8Array view works the same.
  for (const chunk of chunks) onData(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length));
  onEnd();
}
