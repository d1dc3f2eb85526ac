/**
 * `--scripted`: real pi 1.x answered by the scripted model server of `@pi-kit/testing` (the model
 * the demo runs), so the bridge can be tried without an API key. `@pi-kit/testing` and pi are
 * development tools, not dependencies of the bridge: they are loaded only for this flag, and a
 * missing one is named with the command that installs it.
 */
import type { PiProcessSpec } from "../sessions/session-settings.ts";

/** A scripted pi and what it owns. */
export interface ScriptedPi {
  /** How the bridge spawns pi (it appends `--session-dir` per session). */
  readonly pi: PiProcessSpec;
  /** A temp sessions directory, removed by `close()`, for when none was given. */
  readonly sessionsDir: string;
  /** Stops the model server and removes the temp directories. */
  close(): Promise<void>;
}

/** What `--scripted` needs that a plain install of the bridge lacks. */
export class ScriptedUnavailableError extends Error {
  override name = "ScriptedUnavailableError";
}

/** The install line for everything `--scripted` loads. */
const INSTALL = "npm install --save-dev @pi-kit/testing @earendil-works/pi-coding-agent node@22";

/** Starts the scripted model and prepares pi 1.x against it, in an isolated agent dir. */
export async function startScriptedPi(): Promise<ScriptedPi> {
  let testing: typeof import("@pi-kit/testing");
  try {
    testing = await import("@pi-kit/testing");
  } catch (error) {
    throw new ScriptedUnavailableError(
      `--scripted needs @pi-kit/testing (${(error as Error).message}): ${INSTALL}`,
    );
  }
  const model = await testing.startModelServer();
  let command: ReturnType<typeof testing.piCommand>;
  try {
    command = testing.piCommand({ version: "1", baseUrl: model.baseUrl });
  } catch (error) {
    await model.close();
    throw new ScriptedUnavailableError(
      `--scripted cannot find pi 1.x and Node 22 (${(error as Error).message}): ${INSTALL}`,
    );
  }
  const host = testing.sessionHostOptions(command);
  // pi inherits the bridge's environment, but never the bridge's own token.
  const { PI_KIT_BRIDGE_TOKEN: _token, ...env } = host.pi.env;
  return {
    pi: { ...host.pi, env },
    sessionsDir: host.sessionsDir,
    async close() {
      await model.close();
      command.dispose();
    },
  };
}
