import type { ProtocolError } from "../errors/protocol-error.ts";
import { JsonlDecoder, type JsonlDecoderOptions } from "./jsonl-decoder.ts";

/** One item out of a {@link JsonlDecoderStream}: a record without its LF, or the error that replaced an oversized one. */
export type JsonlFrame = string | ProtocolError;

/** Options for {@link JsonlDecoderStream}. */
export interface JsonlDecoderStreamOptions {
  /** Largest record accepted, in UTF-8 bytes; larger ones become a `record_too_large` frame. Defaults to 64 MiB. */
  maxRecordBytes?: number;
}

/**
 * The {@link JsonlDecoder} as a `TransformStream` from bytes (or text) to records.
 * An oversized record is not dropped: a `ProtocolError` takes its place in the stream.
 *
 * @example
 * ```ts
 * for await (const frame of stdout.pipeThrough(new JsonlDecoderStream())) {
 *   if (typeof frame === "string") handle(JSON.parse(frame));
 * }
 * ```
 */
export class JsonlDecoderStream extends TransformStream<Uint8Array | string, JsonlFrame> {
  constructor(options: JsonlDecoderStreamOptions = {}) {
    const decoderOptions: JsonlDecoderOptions = {};
    if (options.maxRecordBytes !== undefined)
      decoderOptions.maxRecordBytes = options.maxRecordBytes;
    const decoder = new JsonlDecoder(decoderOptions);
    super({
      transform(chunk, controller) {
        const enqueue = (frame: JsonlFrame) => controller.enqueue(frame);
        decoder.scan(chunk, enqueue, enqueue);
      },
      flush(controller) {
        const enqueue = (frame: JsonlFrame) => controller.enqueue(frame);
        decoder.finish(enqueue, enqueue);
      },
    });
  }
}
