import { encodeRecord } from "@pi-kit/protocol";
import type { DiagnosticSink } from "../diagnostics/pi-client-diagnostic.ts";
import type { Transport, TransportCloseInfo, TransportFrame } from "../transports/transport.ts";

// A closed transport may still hold unread frames (the last responses); give the reader this long.
const CLOSE_GRACE_MS = 50;

/** The client's end of a transport: writes records, reads every frame to a handler, tells when it closed. */
export class TransportLink {
  readonly #transport: Transport;
  readonly #writer: WritableStreamDefaultWriter<string>;
  readonly #report: DiagnosticSink;
  readonly #pump: Promise<void>;

  /** Settles with why the transport closed, once the frames it still held were read; never rejects. */
  readonly closed: Promise<TransportCloseInfo>;

  /** Starts reading `transport`, handing each frame to `onFrame`. */
  constructor(
    transport: Transport,
    report: DiagnosticSink,
    onFrame: (frame: TransportFrame) => void,
  ) {
    this.#transport = transport;
    this.#report = report;
    this.#writer = transport.writable.getWriter();
    this.#pump = this.#read(onFrame);
    this.closed = this.#watchClose();
  }

  /** Writes one record; a failure is reported, then thrown. */
  async write(record: object): Promise<void> {
    // encodeRecord refuses what pi cannot take (a top-level null crashes pi); it throws synchronously.
    const line = encodeRecord(record);
    try {
      await this.#writer.write(line);
    } catch (error) {
      this.#report({
        kind: "write_error",
        message: `could not write to pi: ${String(error)}`,
        error,
        record,
      });
      throw error;
    }
  }

  async #read(onFrame: (frame: TransportFrame) => void): Promise<void> {
    const reader = this.#transport.readable.getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        for (const frame of value) onFrame(frame);
      }
    } catch (error) {
      this.#report({
        kind: "protocol_error",
        message: `reading from pi failed: ${String(error)}`,
        error,
      });
    } finally {
      reader.releaseLock();
    }
  }

  async #watchClose(): Promise<TransportCloseInfo> {
    // Whichever comes first: pi's exit or the end of its output. Each waits briefly for the other so
    // buffered responses are delivered and the exit code is known, well within 100 ms.
    return Promise.race([
      this.#transport.closed.then(async (closeInfo) => {
        await Promise.race([this.#pump, delay(CLOSE_GRACE_MS)]);
        return closeInfo;
      }),
      this.#pump.then(() =>
        Promise.race([
          this.#transport.closed,
          delay(CLOSE_GRACE_MS).then((): TransportCloseInfo => ({ reason: "eof" })),
        ]),
      ),
    ]);
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
