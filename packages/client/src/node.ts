/**
 * @module
 * Spawns pi as a child process on Node. Prefer `@pi-kit/client/process`, which picks the runtime.
 */

export { spawnNode } from "./transports/child-process/node.ts";
export type {
  ChildProcessOptions,
  ChildProcessTransport,
  ExitStatus,
  StopSignal,
  StopTimeouts,
} from "./transports/child-process/options.ts";
