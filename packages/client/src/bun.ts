/**
 * @module
 * Spawns pi as a child process on Bun. Prefer `@pi-kit/client/process`, which picks the runtime.
 */

export { spawnBun } from "./transports/child-process/bun.ts";
export type {
  ChildProcessOptions,
  ChildProcessTransport,
  ExitStatus,
  StopSignal,
  StopTimeouts,
} from "./transports/child-process/options.ts";
