import assert from "node:assert/strict";
import { test } from "node:test";
import { ProtocolError } from "@pi-kit/protocol";
import { createStreamTransport } from "../../src/transports/index.ts";
import type { TransportFrame } from "../../src/transports/transport.ts";
import { type FrameReader, frameReader } from "../support/frame-reader.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A transport wired to an in-memory peer: what the peer writes arrives as frames, and back. */
function pair(maxRecordBytes?: number) {
  const toClient = new TransformStream<Uint8Array | string, Uint8Array | string>();
  const toPeer = new TransformStream<Uint8Array, Uint8Array>();
  let released = 0;
  const transport = createStreamTransport({
    readable: toClient.readable,
    writable: toPeer.writable,
    ...(maxRecordBytes === undefined ? {} : { maxRecordBytes }),
    close: () => {
      released++;
    },
  });
  return {
    transport,
    peerWriter: toClient.writable.getWriter(),
    peerReader: toPeer.readable.getReader(),
    released: () => released,
  };
}

async function take(reader: FrameReader, n: number) {
  const frames: TransportFrame[] = [];
  while (frames.length < n) {
    const { done, value } = await reader.read();
    if (done) break;
    frames.push(value);
  }
  return frames;
}

test("stream: records arrive as frames, whatever the chunking", async () => {
  const { transport, peerWriter } = pair();
  const reader = frameReader(transport.readable);
  const bytes = encoder.encode('{"type":"a","text":"é ✓"}\n{"type":"b"}\r\n{"ty');
  // Split inside a multi-byte character and inside a record.
  await peerWriter.write(bytes.subarray(0, 20));
  await peerWriter.write(bytes.subarray(20));
  await peerWriter.write('pe":"c"}\n');
  assert.deepEqual(await take(reader, 3), [
    '{"type":"a","text":"é ✓"}',
    '{"type":"b"}',
    '{"type":"c"}',
  ]);
  await peerWriter.close();
  assert.deepEqual(await reader.read(), { done: true, value: undefined });
  assert.deepEqual(await transport.closed, { reason: "eof" });
});

test("stream: the records of one chunk arrive as one batch, a chunk without one as none", async () => {
  const { transport, peerWriter } = pair(64);
  const reader = transport.readable.getReader();
  await peerWriter.write(`{"type":"a"}\n{"type":"b","x":"${"x".repeat(100)}"}\n{"ty`);
  const first = await reader.read();
  assert.equal(first.done, false);
  const [a, tooLarge, ...rest] = first.value ?? [];
  assert.equal(a, '{"type":"a"}');
  assert.ok(tooLarge instanceof ProtocolError);
  assert.deepEqual(rest, []);
  // An unfinished record makes no empty batch; the chunk that ends it carries it.
  await peerWriter.write('pe":"c"');
  await peerWriter.write('}\n{"type":"d"}\n');
  assert.deepEqual((await reader.read()).value, ['{"type":"c"}', '{"type":"d"}']);
  await transport.close();
});

test("stream: a record without a final LF is delivered at the end", async () => {
  const { transport, peerWriter } = pair();
  await peerWriter.write('{"type":"last"}');
  await peerWriter.close();
  const reader = frameReader(transport.readable);
  assert.deepEqual(await take(reader, 2), ['{"type":"last"}']);
});

test("stream: an oversized record becomes a ProtocolError frame and the next one still arrives", async () => {
  const { transport, peerWriter } = pair(64);
  const reader = frameReader(transport.readable);
  await peerWriter.write(
    `{"type":"ok"}\n{"type":"big","x":"${"x".repeat(200)}"}\n{"type":"next"}\n`,
  );
  const [first, error, next] = await take(reader, 3);
  assert.equal(first, '{"type":"ok"}');
  assert.ok(error instanceof ProtocolError);
  assert.equal(error.code, "record_too_large");
  assert.equal(next, '{"type":"next"}');
  await transport.close();
});

test("stream: writes arrive in order, one line each", async () => {
  const { transport, peerReader } = pair();
  const writer = transport.writable.getWriter();
  const received: string[] = [];
  const reading = (async () => {
    let text = "";
    while (text.split("\n").length <= 50) {
      const { done, value } = await peerReader.read();
      if (done) break;
      text += decoder.decode(value);
    }
    received.push(...text.split("\n").filter((line) => line !== ""));
  })();
  const writes: Promise<void>[] = [];
  for (let i = 0; i < 50; i++) {
    // Not awaited one by one: the transport must keep the order itself. The last lacks its LF.
    writes.push(writer.write(i === 49 ? `{"id":"${i}"}` : `{"id":"${i}"}\n`));
  }
  await Promise.all(writes);
  await reading;
  assert.deepEqual(
    received,
    Array.from({ length: 50 }, (_, i) => `{"id":"${i}"}`),
  );
  writer.releaseLock();
  await transport.close();
});

test("stream: close() closes the writable, ends the readable and releases the channel once", async () => {
  const { transport, peerReader, released } = pair();
  const peerRead = (async () => {
    let text = "";
    for (;;) {
      const { done, value } = await peerReader.read();
      if (done) return text;
      text += decoder.decode(value);
    }
  })();
  const writer = transport.writable.getWriter();
  await writer.write('{"type":"get_state","id":"1"}\n');
  // The client still holds its writer: the transport must close anyway.
  const info = await transport.close();
  assert.deepEqual(info, { reason: "closed" });
  assert.equal(await peerRead, '{"type":"get_state","id":"1"}\n');
  assert.deepEqual(await frameReader(transport.readable).read(), { done: true, value: undefined });
  await assert.rejects(writer.write("{}\n"));
  assert.deepEqual(await transport.close(), { reason: "closed" });
  assert.equal(released(), 1);
});

test("stream: a failing readable settles closed with the error", async () => {
  const boom = new Error("reset");
  const readable = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode('{"type":"a"}\n'));
      controller.error(boom);
    },
  });
  const transport = createStreamTransport({ readable, writable: new WritableStream() });
  const info = await transport.closed;
  assert.equal(info.reason, "error");
  assert.equal(info.error, boom);
});

test("stream: a failing write rejects and settles closed with the error", async () => {
  const boom = new Error("EPIPE");
  const transport = createStreamTransport({
    readable: new ReadableStream(),
    writable: new WritableStream({
      write() {
        throw boom;
      },
    }),
  });
  const writer = transport.writable.getWriter();
  await assert.rejects(writer.write("{}\n"), boom);
  const info = await transport.closed;
  assert.equal(info.reason, "error");
  assert.equal(info.error, boom);
});
