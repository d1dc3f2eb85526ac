/**
 * What one session's pi writes, read and handed on. Each record goes out through the
 * {@link FanOut} (reading pauses while a socket is over the high-water mark, so pi blocks on its
 * stdout pipe), an answer to the one connection that asked ({@link ResponseRouter}); on the way the
 * session's parts learn what they track: whether pi streams, the name it announced, the dialogs it
 * waits on, the run in progress and the file it moved to. Records are told apart by `peekRecord`,
 * so pi's key order does not matter and no record is parsed unless its type needs it.
 */
import type { ChildProcessTransport, TransportFrames } from "@pi-kit/client/process";
import { peekRecord } from "@pi-kit/protocol";
import { type BridgeLogger, safeLog } from "../logging/logger.ts";
import type { SessionKey } from "../principals/owner.ts";
import type { FanOut } from "./fan-out.ts";
import type { PendingDialogs } from "./pending-dialogs.ts";
import { BRIDGE_ANSWER, type ResponseRouter } from "./response-router.ts";
import type { RetainedUi } from "./retained-ui.ts";
import type { RunRecorder } from "./run-recorder.ts";
import type { SessionConnection } from "./session-connection.ts";
import { type SessionFile, sessionSwitch } from "./session-file.ts";

/** The parts of a session that pi's output feeds. */
export interface PiOutputParts {
  readonly key: SessionKey;
  readonly logger: BridgeLogger;
  readonly fanOut: FanOut;
  readonly router: ResponseRouter;
  readonly run: RunRecorder;
  readonly dialogs: PendingDialogs;
  readonly ui: RetainedUi;
  readonly file: SessionFile;
  /** Asks pi for its state (the bridge's own `get_state`), to learn the file it moved to. */
  readonly getState: () => Promise<Record<string, unknown>>;
  /** Told how long each batch took from its read to its hand-over to the sockets, in seconds. */
  readonly onRelayed?: ((seconds: number) => void) | undefined;
}

/** The reading side of one session's pi. */
export class PiOutput {
  readonly #parts: PiOutputParts;
  #streaming = false;
  /** The session name pi announced (`null`: cleared); `undefined` until it announces one. */
  #announcedName: string | null | undefined;
  #lastRecordAt = Date.now();
  /** When pi last wrote a record of a run; 0 before its first run. */
  #lastRunRecordAt = 0;

  constructor(parts: PiOutputParts) {
    this.#parts = parts;
  }

  /** Whether pi is in a run (between `agent_start` and `agent_settled`/`agent_end`). */
  get streaming(): boolean {
    return this.#streaming;
  }

  /** The session name pi announced since it started (`null`: cleared); `undefined` if none. */
  get announcedName(): string | null | undefined {
    return this.#announcedName;
  }

  /** pi took a name the bridge gave it (its announcement may come later, or not at all). */
  named(name: string): void {
    this.#announcedName = name;
  }

  /** When pi last wrote a record a client could see (`Date.now()` time). */
  get lastRecordAt(): number {
    return this.#lastRecordAt;
  }

  /**
   * When pi last wrote a record of a run (`Date.now()` time; 0 before its first run): the
   * conversation's activity. Answers to queries (a page opening it asks for its state and
   * messages) are not activity.
   */
  get lastRunRecordAt(): number {
    return this.#lastRunRecordAt;
  }

  /** Reads pi until its stdout ends; attached or not, so pi never blocks on a session nobody watches. */
  async pump(transport: ChildProcessTransport): Promise<void> {
    const reader = transport.readable.getReader();
    for (;;) {
      let result: ReadableStreamReadResult<TransportFrames>;
      try {
        result = await reader.read();
      } catch {
        return;
      }
      if (result.done) return;
      const drained = this.#relay(result.value);
      if (drained !== undefined) await drained;
    }
  }

  /** pi exited: no run goes on. */
  ended(): void {
    this.#streaming = false;
    this.#parts.run.clear();
  }

  /**
   * Relays one batch of pi's frames: the bridge's own answers and pi's unreadable output stay
   * here, the rest goes out; returns a promise while a socket holds the batch back.
   */
  #relay(frames: TransportFrames): Promise<void> | undefined {
    const { router, run, onRelayed } = this.#parts;
    const readAt = onRelayed === undefined ? 0 : performance.now();
    const lines: string[] = [];
    const types: (string | undefined)[] = [];
    const answers: (SessionConnection | undefined)[] = [];
    for (const frame of frames) {
      if (typeof frame !== "string") {
        safeLog(this.#parts.logger, {
          event: "pi_record_error",
          session: this.#parts.key,
          error: frame.message,
        });
        continue;
      }
      const peek = peekRecord(frame);
      const type = peek?.type;
      // Only a response has an id worth reading (reading a missing one scans the whole line).
      const routed =
        type === "response" && router.waiting ? router.deliver(frame, peek?.id) : undefined;
      if (routed === BRIDGE_ANSWER) continue;
      // An answer goes out with its client's own id (see ResponseRouter).
      const line = routed?.line ?? frame;
      this.#lastRecordAt = Date.now();
      this.#observe(line, type);
      if (this.#streaming || type === "agent_end" || type === "agent_settled")
        this.#lastRunRecordAt = this.#lastRecordAt;
      lines.push(line);
      types.push(type);
      answers.push(routed?.to);
    }
    if (lines.length === 0) return undefined;
    const held = this.#parts.fanOut.send({ lines, answers });
    onRelayed?.((performance.now() - readAt) / 1000);
    // After the sockets have the batch, so folding it adds nothing to their latency; before any
    // other task, so a connection attaching next gets a snapshot that includes it.
    for (let i = 0; i < lines.length; i++) run.observe(lines[i] as string, types[i]);
    return held;
  }

  /** Tracks what the API reports and the dialogs to re-send, from pi's own records. */
  #observe(line: string, type: string | undefined): void {
    switch (type) {
      case "agent_start":
        this.#streaming = true;
        return;
      case "agent_settled":
      case "agent_end":
        this.#streaming = false;
        return;
      case "session_info_changed":
        try {
          const name = (JSON.parse(line) as { name?: unknown }).name;
          this.#announcedName = typeof name === "string" && name.trim() !== "" ? name.trim() : null;
        } catch {
          // Not JSON: the client's framer reports it.
        }
        return;
      case "extension_ui_request": {
        // Parsed once for both: the dialogs pi waits on, and the state it set.
        const request = parseObject(line);
        if (request === undefined) return;
        this.#parts.dialogs.observe(request);
        this.#parts.ui.observe(line, request);
        return;
      }
      case "response": {
        const moved = sessionSwitch(line);
        if (moved === undefined) return;
        // The name announced belonged to the file pi left; the new one carries its own, if any.
        this.#announcedName = undefined;
        // A run cut off by the switch may never announce its end (pi 0.73).
        this.#parts.run.clear();
        this.#parts.file.moved(moved === "forked", this.#parts.getState);
      }
    }
  }
}

/** `line` parsed, when it is a JSON object (the client's framer reports anything else). */
function parseObject(line: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
