/**
 * A session on a scripted pi (no process): the test writes pi's stdout in batches (one read of the
 * pipe each) and reads what the session wrote to pi's stdin.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ChildProcessTransport, TransportCloseInfo, TransportFrames } from "@pi-kit/client";
import { silentLogger } from "../src/logging/logger.ts";
import { Session } from "../src/sessions/session.ts";

/** A pi whose stdout the test writes and whose stdin it reads. */
export function scriptedPi() {
  let stdout!: ReadableStreamDefaultController<TransportFrames>;
  let exit!: (info: TransportCloseInfo) => void;
  const closed = new Promise<TransportCloseInfo>((resolve) => {
    exit = resolve;
  });
  const stdin: string[] = [];
  let onInput: ((line: string) => void) | undefined;
  const transport: ChildProcessTransport = {
    readable: new ReadableStream<TransportFrames>({
      start(controller) {
        stdout = controller;
      },
    }),
    writable: new WritableStream<string>({
      write: (line) => {
        stdin.push(line);
        onInput?.(line);
      },
    }),
    closed,
    close: async () => {
      stdout.close();
      exit({ reason: "closed", exitCode: 0, signal: null, stderrTail: "" });
      return closed;
    },
    pid: undefined,
    stderrTail: () => "",
    onPiStderr: () => () => {},
    kill: () => {},
  };
  return {
    transport,
    stdin,
    write: (lines: string[]) => stdout.enqueue(lines),
    /** Answers each record pi reads with `answer(record)`, when it returns a line. */
    answerWith: (answer: (record: Record<string, unknown>) => string | undefined) => {
      onInput = (line) => {
        const reply = answer(JSON.parse(line) as Record<string, unknown>);
        if (reply !== undefined) queueMicrotask(() => stdout.enqueue([reply]));
      };
    },
  };
}

/** The scripted pi of {@link scriptedPi}. */
export type ScriptedPi = ReturnType<typeof scriptedPi>;

/** Runs `run` on a session over a fresh scripted pi, then closes it and removes its directory. */
export async function withSession(
  run: (session: Session, pi: ScriptedPi) => Promise<void>,
  highWaterMark = 1 << 20,
): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "pi-kit-scripted-session-"));
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
export const read = (): Promise<unknown> => new Promise((resolve) => setTimeout(resolve, 0));
