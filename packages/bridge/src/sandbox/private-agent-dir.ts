/**
 * A sandboxed pi's agent directory (`PI_CODING_AGENT_DIR`: models, keys, settings, extensions).
 * pi writes there (locks, settings), but one session must never change what another one loads,
 * nor see the operator's own pi transcripts in `sessions/`. So each session gets a private,
 * writable copy of the top-level files, refreshed at every start, with the directories beside
 * them (extensions, themes, skills, tools) shown read-only and `sessions/` left out.
 */
import { copyFile, mkdir, readdir, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";

/** The name of the private agent directory inside a session's directory. */
export const PRIVATE_AGENT_DIR = ".pi-agent";

/** pi's agent directory for an environment: `$PI_CODING_AGENT_DIR`, else `~/.pi/agent`. */
export function agentDirOf(env: Readonly<Record<string, string | undefined>>): string {
  return env.PI_CODING_AGENT_DIR ?? join(env.HOME ?? homedir(), ".pi", "agent");
}

/** A session's private agent directory, and the operator's directories to show read-only. */
export interface PrivateAgentDir {
  /** The private copy, to mount at the agent directory's path. */
  readonly dir: string;
  /** Sub-directories of the agent directory to mount read-only over the copy. */
  readonly shared: readonly string[];
}

/** Makes (or refreshes) the private agent directory of the session in `sessionDir`. */
export async function privateAgentDir(
  agentDir: string,
  sessionDir: string,
): Promise<PrivateAgentDir> {
  const dir = join(sessionDir, PRIVATE_AGENT_DIR);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  let entries: string[];
  try {
    entries = await readdir(agentDir);
  } catch {
    // No agent directory: pi starts with its defaults, as it would outside the sandbox.
    return { dir, shared: [] };
  }
  const shared: string[] = [];
  for (const entry of entries) {
    if (entry === "sessions") continue;
    const path = join(agentDir, entry);
    const info = await stat(path).catch(() => undefined);
    if (info?.isDirectory()) shared.push(path);
    else if (info?.isFile()) {
      await copyFile(path, join(dir, entry));
    }
  }
  return { dir, shared };
}
