/**
 * An in-memory pi for unit tests: a Transport built from TransformStreams, with a scriptable
 * responder and helpers to push records and read what the client wrote.
 */
import type { TransportCloseInfo, TransportFrame, TransportFrames } from "../../src/index.ts";
import type { Transport } from "../../src/transports/transport.ts";

/** A command as the client wrote it. */
export interface Written {
  readonly type: string;
  readonly id?: string | number;
  readonly [key: string]: unknown;
}

/** Answers one command with records to write back (or nothing: the test answers later). */
export type Responder = (command: Written, pi: FakePi) => unknown[] | undefined;

/** Default state returned for `get_state`. */
export const STATE = {
  thinkingLevel: "off",
  isStreaming: false,
  isCompacting: false,
  steeringMode: "one-at-a-time",
  followUpMode: "one-at-a-time",
  sessionId: "s1",
  autoCompactionEnabled: true,
  messageCount: 0,
  pendingMessageCount: 0,
};

/** What the fake 1.x answers to the commands 0.73.1 lacks. */
const V1_DEFAULTS: Readonly<Record<string, unknown>> = {
  get_available_thinking_levels: { levels: ["off"] },
  clear_queue: { steering: [], followUp: [] },
  get_entries: { entries: [], leafId: null },
  get_tree: { tree: [], leafId: null },
};

/** A success response to `command`. */
export function ok(command: Written, data?: unknown): Record<string, unknown> {
  return data === undefined
    ? { id: command.id, type: "response", command: command.type, success: true }
    : { id: command.id, type: "response", command: command.type, success: true, data };
}

/** A failure response to `command`. */
export function fail(command: Written, error: string): Record<string, unknown> {
  return { id: command.id, type: "response", command: command.type, success: false, error };
}

/** The scripted pi. */
export class FakePi {
  readonly transport: Transport;
  readonly written: Written[] = [];
  /** Per-command-type overrides; return `undefined` to answer later by hand. */
  readonly handlers = new Map<string, Responder>();
  readonly #writer: WritableStreamDefaultWriter<TransportFrames>;
  readonly #waiters: Array<(command: Written) => void> = [];
  #resolveClosed!: (info: TransportCloseInfo) => void;
  readonly version: "0.73" | "1";

  constructor(version: "0.73" | "1" = "1") {
    this.version = version;
    const toClient = new TransformStream<TransportFrames, TransportFrames>();
    const fromClient = new TransformStream<string, string>();
    this.#writer = toClient.writable.getWriter();
    const closed = new Promise<TransportCloseInfo>((resolve) => {
      this.#resolveClosed = resolve;
    });
    this.transport = {
      readable: toClient.readable,
      writable: fromClient.writable,
      closed,
      close: async () => {
        this.exit({ reason: "closed", exitCode: 0 });
        return closed;
      },
    };
    void this.#pump(fromClient.readable.getReader());
  }

  async #pump(reader: ReadableStreamDefaultReader<string>): Promise<void> {
    for (;;) {
      const { value, done } = await reader
        .read()
        .catch(() => ({ value: undefined, done: true as const }));
      if (done || value === undefined) return;
      const command = JSON.parse(value) as Written;
      this.written.push(command);
      const waiter = this.#waiters.shift();
      waiter?.(command);
      const records = (this.handlers.get(command.type) ?? this.#default)(command, this);
      for (const record of records ?? []) this.push(record);
    }
  }

  readonly #default: Responder = (command) => {
    switch (command.type) {
      case "get_state":
        return [ok(command, STATE)];
      case "get_available_thinking_levels":
      case "clear_queue":
      case "get_entries":
      case "get_tree":
        if (this.version === "0.73") {
          // 0.73.1 drops the id of an unknown command.
          return [
            {
              type: "response",
              command: command.type,
              success: false,
              error: `Unknown command: ${command.type}`,
            },
          ];
        }
        return [ok(command, V1_DEFAULTS[command.type])];
      case "get_messages":
        return [ok(command, { messages: [] })];
      case "extension_ui_response":
        return [];
      case "prompt":
        return this.version === "1" ? [ok(command, { disposition: "started" })] : [ok(command)];
      default:
        return [ok(command)];
    }
  };

  /** Writes one record (an object is JSON-encoded; a string or ProtocolError is passed as the frame). */
  push(record: unknown): void {
    const frame =
      typeof record === "string" || record instanceof Error ? record : JSON.stringify(record);
    void this.#writer.write([frame as TransportFrame]).catch(() => {});
  }

  /** Resolves with the next command the client writes. */
  nextCommand(): Promise<Written> {
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** Resolves with the next command of `type`. */
  async waitFor(type: string): Promise<Written> {
    for (;;) {
      const command = await this.nextCommand();
      if (command.type === type) return command;
    }
  }

  /** Ends the process: the readable ends and `closed` settles with `info`. */
  exit(
    info: TransportCloseInfo = { reason: "exit", exitCode: 1, signal: null, stderrTail: "boom\n" },
  ): void {
    void this.#writer.close().catch(() => {});
    this.#resolveClosed(info);
  }
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Lets queued microtasks and stream hops run. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 5; i++) await sleep(0);
}
