/**
 * How to run a TypeScript entry point as a process of its own on the runtime this code runs on
 * (Node with tsx, Deno, Bun), resolving workspace packages to their sources.
 * @module
 */

import process from "node:process";

/** A command line: the executable and its arguments. */
export interface ScriptCommand {
  /** The runtime's executable. */
  readonly command: string;
  /** The runtime's flags, then the script and `args`. */
  readonly args: readonly string[];
}

/** The command that runs `script` (a path) with `args` on this runtime. */
export function scriptCommand(script: string, args: readonly string[] = []): ScriptCommand {
  const g = globalThis as { Deno?: { execPath(): string }; Bun?: unknown };
  if (g.Deno !== undefined)
    return { command: g.Deno.execPath(), args: ["run", "-A", script, ...args] };
  if (g.Bun !== undefined)
    return { command: process.execPath, args: ["--conditions", "@pi-kit/source", script, ...args] };
  return {
    command: process.execPath,
    args: ["--conditions=@pi-kit/source", "--import", import.meta.resolve("tsx"), script, ...args],
  };
}
