/** pi's own reader: `attachJsonlLineReader(stream, onLine)` from the installed pi 1.x. */
type AttachJsonlLineReader = (
  stream: { on(event: string, fn: (chunk?: Uint8Array) => void): void; off(): void },
  onLine: (line: string) => void,
) => () => void;

// The package exports no subpath for it, so load the file beside the repo's installed copy.
const jsonl = new URL(
  "../../node_modules/@earendil-works/pi-coding-agent/dist/modes/rpc/jsonl.js",
  import.meta.url,
);
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
