/**
 * Where the demo keeps what must survive a restart: `PI_KIT_DEMO_STATE_DIR`, else
 * `$XDG_STATE_HOME/pi-kit/demo`, else `~/.local/state/pi-kit/demo` (created 0700).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { generateToken } from "@pi-kit/bridge";

/** The demo's state directory for this user, created if missing. */
export function demoStateDir(env: Record<string, string | undefined> = process.env): string {
  const dir =
    env.PI_KIT_DEMO_STATE_DIR ||
    join(env.XDG_STATE_HOME || join(homedir(), ".local", "state"), "pi-kit", "demo");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/**
 * The access token kept in `<dir>/token` (0600), made on first use. Keeping it means a restart
 * leaves open tabs and bookmarks working; delete the file to get a new one.
 */
export function persistentToken(dir: string): string {
  const file = join(dir, "token");
  try {
    const saved = readFileSync(file, "utf8").trim();
    if (/^[A-Za-z0-9_-]{32,}$/.test(saved)) return saved;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const token = generateToken();
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  return token;
}
