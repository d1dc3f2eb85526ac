/**
 * @module
 * The transports that run anywhere (web standards only): the interface, streams, replay and recording.
 * Child processes are in the runtime entry points: `@pi-kit/client/process` (automatic),
 * `/node`, `/deno` and `/bun`.
 */
export type {
  ChildProcessOptions,
  ChildProcessTransport,
  ExitStatus,
  StopSignal,
  StopTimeouts,
} from "./child-process/options.ts";
export { type RecordOptions, recordTransport } from "./recording-transport.ts";
export {
  createReplayTransport,
  type ReplayOptions,
  type ReplayTransport,
} from "./replay-transport.ts";
export { createStreamTransport, type StreamTransportOptions } from "./stream-transport.ts";
export type { Transport, TransportCloseInfo, TransportFrame } from "./transport.ts";
