/**
 * How a session hands pi's records to its connections, with a scripted pi (no process): the
 * order each connection sees, which connection gets an answer, and who goes first in a batch.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import type { ChildProcessTransport, TransportCloseInfo, TransportFrames } from "@pi-kit/client";
import { silentLogger } from "../src/logger.ts";
import { Session, type SessionConnection } from "../src/sessions/session.ts";

/** A pi whose stdout the test writes, one batch (one read of the pipe) at a time. */
function scriptedPi() {
  let stdout!: ReadableStreamDefaultController<TransportFrames>;
  let exit!: (info: TransportCloseInfo) => void;
  const closed = new Promise<TransportCloseInfo>((resolve) => {
    exit = resolve;
  });
  const stdin: string[] = [];
  const transport: ChildProcessTransport = {
    readable: new ReadableStream<TransportFrames>({
      start(controller) {
        stdout = controller;
      },
    }),
    writable: new WritableStream<string>({ write: (line) => void stdin.push(line) }),
    closed,
    close: async () => {
      stdout.close();
      exit({ reason: "closed", exitCode: 0, signal: null, stderrTail: "" });
      return closed;
    },
    pid: undefined,
    stderrTail: () => "",
    kill: () => {},
  };
  return { transport, stdin, write: (lines: string[]) => stdout.enqueue(lines) };
}

/** A connection that logs each line it is sent, by its own name, into one shared log. */
function connection(id: number, log: string[]): SessionConnection {
  return {
    id,
    label: `viewer ${id}`,
    readOnly: false,
    send: (line) => {
      const record = JSON.parse(line) as { type: string; n?: number };
      if (record.type !== "bridge_control") log.push(`${id}:${record.n ?? record.type}`);
    },
    bufferedAmount: () => 0,
    drained: async () => {},
    close: () => {},
  };
}

async function withSession(
  run: (session: Session, pi: ReturnType<typeof scriptedPi>) => Promise<void>,
  highWaterMark = 1 << 20,
) {
  const dir = mkdtempSync(join(tmpdir(), "pi-kit-relay-"));
  const pi = scriptedPi();
  const session = await Session.start("s", join(dir, "s"), {
    pi: { command: "pi" },
    sessionArgs: () => [],
    spawn: async () => pi.transport,
    highWaterMark,
    maxPendingDialogs: 8,
    maxStdinBytes: 1 << 20,
    stopTimeouts: undefined,
    logger: silentLogger,
  });
  try {
    await run(session, pi);
  } finally {
    await session.close("closed");
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Resolves once the session has read what pi wrote so far. */
const read = () => new Promise((resolve) => setTimeout(resolve, 0));

const events = (from: number, count: number): string[] =>
  Array.from({ length: count }, (_, i) => JSON.stringify({ type: "message_update", n: from + i }));

test("relay: the controller gets a whole batch before any watcher, each in pi's order", async () => {
  await withSession(async (session, pi) => {
    const log: string[] = [];
    const watcher = connection(1, log);
    const controller = connection(2, log);
    session.attach(watcher);
    session.attach(controller);
    // The watcher attached first, so it controls; hand control to the later connection.
    assert.equal(session.takeControl(controller), true);
    pi.write(events(0, 3));
    await read();
    pi.write(events(3, 2));
    await read();
    assert.deepEqual(log, ["2:0", "2:1", "2:2", "1:0", "1:1", "1:2", "2:3", "2:4", "1:3", "1:4"]);
  });
});

test("relay: an answer goes to its asker alone, in its place among the events", async () => {
  await withSession(async (session, pi) => {
    const log: string[] = [];
    const controller = connection(1, log);
    const watcher = connection(2, log);
    session.attach(controller);
    session.attach(watcher);
    assert.equal(session.write('{"type":"get_state","id":7}', undefined, watcher, 7), true);
    pi.write([
      events(0, 1)[0] as string,
      '{"id":7,"type":"response","command":"get_state","success":true}',
      events(1, 1)[0] as string,
    ]);
    await read();
    assert.deepEqual(log, ["1:0", "1:1", "2:0", "2:response", "2:1"]);
  });
});

test("relay: a socket over the high-water mark mid-batch gets the rest of it once drained", async () => {
  const lineBytes = events(0, 1)[0]?.length ?? 0;
  await withSession(async (session, pi) => {
    const log: string[] = [];
    let buffered = 0;
    let drain: (() => void) | undefined;
    const slow: SessionConnection = {
      ...connection(1, log),
      send: (line) => {
        buffered += line.length;
        log.push(`1:${(JSON.parse(line) as { n?: number }).n ?? "control"}`);
      },
      bufferedAmount: () => buffered,
      drained: () =>
        new Promise<void>((resolve) => {
          drain = resolve;
        }),
      // As a real socket's does, closing ends the wait (so a failed assertion cannot hang the test).
      close: () => drain?.(),
    };
    session.attach(slow);
    buffered = 0;
    log.length = 0;
    pi.write(events(0, 10));
    await read();
    // Over the mark after the third record: the socket holds at most the mark plus one record.
    assert.deepEqual(log, ["1:0", "1:1", "1:2"]);
    assert.ok(session.info().peakBufferedAmount <= 2.5 * lineBytes + lineBytes);
    pi.write(events(10, 1));
    await read();
    assert.equal(log.length, 3, "pi is not read while the socket is full");
    // Each time the socket drains, it gets records until it is over the mark again.
    for (const upTo of [6, 9, 11]) {
      buffered = 0;
      drain?.();
      await read();
      assert.equal(log.length, upTo);
    }
    assert.deepEqual(log, [
      "1:0",
      "1:1",
      "1:2",
      "1:3",
      "1:4",
      "1:5",
      "1:6",
      "1:7",
      "1:8",
      "1:9",
      "1:10",
    ]);
  }, 2.5 * lineBytes);
});
