/**
 * @module
 * Spawns pi as a child process with the current runtime's own API (Node, Deno or Bun),
 * loading only that runtime's adapter.
 */
export type {
  ChildProcessOptions,
  ChildProcessTransport,
  ExitStatus,
  StopSignal,
  StopTimeouts,
} from "./transports/child-process/options.ts";
export {
  type ChildProcessRuntime,
  detectRuntime,
  spawnPi,
} from "./transports/child-process/spawn-pi.ts";
