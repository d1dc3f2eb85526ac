/**
 * @module
 * Spawns pi as a child process on Deno. Prefer `@pi-kit/client/process`, which picks the runtime.
 */

export { spawnDeno } from "./transports/child-process/deno.ts";
export type * from "./transports/child-process/public-types.ts";
