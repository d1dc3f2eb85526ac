/**
 * @module
 * Spawns pi as a child process with the current runtime's own API (Node, Deno or Bun),
 * loading only that runtime's adapter.
 */
export {
  type ExtensionLaunch,
  type PermissionModesOptions,
  permissionExtensionPath,
  permissionModes,
} from "./permissions/permission-launch.ts";
export {
  isPermissionMode,
  PERMISSION_MODES,
  type PermissionMode,
} from "./permissions/permission-mode.ts";
export type * from "./transports/child-process/public-types.ts";
export {
  type ChildProcessRuntime,
  detectRuntime,
  spawnPi,
} from "./transports/child-process/spawn-pi.ts";
// What a child process's `readable` yields, for code that reads it without the client's root.
export type { TransportFrame, TransportFrames } from "./transports/transport.ts";
