/**
 * The child-process transport's public types, which every entry point offering it re-exports
 * (`/node`, `/deno`, `/bun`, `/process` and the transports index).
 */
export type {
  ChildProcessOptions,
  ChildProcessTransport,
  ExitStatus,
  StopSignal,
  StopTimeouts,
} from "./options.ts";
export type { StderrBurstLimits } from "./stderr-bursts.ts";
