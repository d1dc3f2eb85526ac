/**
 * pi's spawn as the bridge places it: in the session's own workspace when workspaces are on,
 * and confined by the sandbox when one is set.
 */
import { relative } from "node:path";
import { spawnPi } from "@pi-kit/client/process";
import type { Sandbox } from "../sandbox/sandbox.ts";
import type { SessionSettings } from "./session-settings.ts";
import type { Workspaces } from "./workspaces.ts";

/** `spawn` (default `spawnPi`) wrapped so that each session's pi starts in its place. */
export function placedSpawn(
  sessionsDir: string,
  workspaces: Workspaces | undefined,
  sandbox: Sandbox | undefined,
  spawn: SessionSettings["spawn"] = spawnPi,
): SessionSettings["spawn"] {
  return async (spec, dir) => {
    const placed =
      workspaces === undefined
        ? spec
        : { ...spec, cwd: await workspaces.of(relative(sessionsDir, dir)) };
    return spawn(sandbox === undefined ? placed : await sandbox.wrap(placed, dir), dir);
  };
}
