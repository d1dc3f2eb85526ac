import type { ChildProcessOptions, ChildProcessTransport } from "./options.ts";

/** The runtimes the child-process transport supports. */
export type ChildProcessRuntime = "node" | "deno" | "bun";

/** The runtime this code runs on: Deno and Bun by their globals, anything else is taken for Node. */
export function detectRuntime(): ChildProcessRuntime {
  const g = globalThis as { Deno?: unknown; Bun?: unknown };
  if (g.Bun !== undefined) return "bun";
  if (g.Deno !== undefined) return "deno";
  return "node";
}

/**
 * Spawns pi with the current runtime's own process API. The adapter is loaded on demand, so
 * Deno and Bun never load `node:` code, and importing this module spawns nothing.
 *
 * @example
 * ```ts
 * import { spawnPi } from "@pi-kit/client/process";
 * const transport = await spawnPi({ command: "pi", args: ["--mode", "rpc", "--no-session"] });
 * ```
 */
export async function spawnPi(options: ChildProcessOptions = {}): Promise<ChildProcessTransport> {
  switch (detectRuntime()) {
    case "bun":
      return (await import("./bun.ts")).spawnBun(options);
    case "deno":
      return (await import("./deno.ts")).spawnDeno(options);
    case "node":
      return (await import("./node.ts")).spawnNode(options);
  }
}
