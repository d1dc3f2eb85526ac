/**
 * Workspaces of their own. By default every session's pi works in `pi.cwd`, which suits one user.
 * With a workspaces directory, each session gets a directory there laid out as in the sessions
 * directory (`<name>`, a ticket user's `_users/<user>/<name>`), so no two sessions, and above all
 * no two users, share files; under the sandbox a pi sees only its own.
 */
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { prepareSessionsDir } from "../security/sessions-dir.ts";

/** The sessions' own working directories under one root. */
export class Workspaces {
  /** The root: one directory per session key. */
  readonly dir: string;

  /** Creates (0700) and checks the root; throws a `BridgeError` (`invalid_options`) when unsafe. */
  constructor(dir: string) {
    prepareSessionsDir(dir, "workspaces directory");
    this.dir = dir;
  }

  /** The workspace of the session with registry key `key`, created private (0700) when missing. */
  async of(key: string): Promise<string> {
    const workspace = join(this.dir, key);
    await mkdir(workspace, { recursive: true, mode: 0o700 });
    return workspace;
  }

  /** Removes the workspace of a deleted session, with everything in it. */
  async remove(key: string): Promise<void> {
    await rm(join(this.dir, key), { recursive: true, force: true });
  }
}
