/**
 * @module
 * Spawns pi as a child process on Bun. Prefer `@pi-kit/client/process`, which picks the runtime.
 */

export { spawnBun } from "./transports/child-process/bun.ts";
export type * from "./transports/child-process/public-types.ts";
