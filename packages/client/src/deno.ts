/**
 * @module
 * Spawns pi as a child process on Deno. Prefer `@pi-kit/client/process`, which picks the runtime.
 */

export { spawnDeno } from "./transports/child-process/deno.ts";
export type {
  ChildProcessOptions,
  ChildProcessTransport,
  ExitStatus,
  StopSignal,
  StopTimeouts,
} from "./transports/child-process/options.ts";
