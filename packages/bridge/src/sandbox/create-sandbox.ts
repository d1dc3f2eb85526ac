/** Turns the `sandbox` option into a sandbox, checking that it can work here. */
import { bwrapSandbox } from "./bwrap.ts";
import type { Sandbox, SandboxOption } from "./sandbox.ts";

export type { BwrapSandboxOptions, Sandbox, SandboxOption } from "./sandbox.ts";

/**
 * The sandbox `option` asks for, or `undefined` for none; throws when it cannot work here.
 * `privateDirs` hold every session's files (the sessions and workspaces directories): a pi sees
 * only its own session's part of them.
 */
export function createSandbox(
  option: SandboxOption | undefined,
  privateDirs: readonly string[],
): Sandbox | undefined {
  if (option === undefined) return undefined;
  return bwrapSandbox(option === "bwrap" ? { kind: "bwrap" } : option, privateDirs);
}
