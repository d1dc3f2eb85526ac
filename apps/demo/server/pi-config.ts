/**
 * Which pi the demo runs. By default: real pi 1.x against the scripted model server of
 * `@pi-kit/testing`, in an isolated agent dir, so no API key is needed. With
 * `PI_KIT_DEMO_PROVIDER` and `PI_KIT_DEMO_MODEL` set, the same pi uses that provider with the
 * user's own pi configuration and API-key variables (for example `ANTHROPIC_API_KEY`).
 */
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { PiProcessSpec } from "@pi-kit/bridge";
import {
  type ModelServer,
  piCommand,
  resolveNode22,
  resolvePi,
  sessionHostOptions,
  startModelServer,
} from "@pi-kit/testing";
import { scriptedPrompts } from "../src/suggestions.ts";

/** The demo's extension, loaded into every pi. */
export const demoExtension = fileURLToPath(new URL("../extension/demo-ui.ts", import.meta.url));

/** A pi configuration and what it owns. */
export interface DemoPi {
  /** How the bridge spawns pi (the bridge adds `--session-dir` per session). */
  readonly spec: PiProcessSpec;
  /** Shown in the page: which model answers. */
  readonly label: string;
  /** True when the embedded scripted model answers. */
  readonly scripted: boolean;
  /** Stops what this configuration started. */
  close(): Promise<void>;
}

/**
 * Builds the demo's pi configuration from the environment. The scripted pi works in `workspace`
 * (created if missing), a temp directory when omitted.
 */
export async function demoPi(
  env: Record<string, string | undefined> = process.env,
  workspace?: string,
): Promise<DemoPi> {
  const provider = env.PI_KIT_DEMO_PROVIDER;
  const model = env.PI_KIT_DEMO_MODEL;
  if (provider && model) {
    const pi = resolvePi("1");
    return {
      spec: {
        command: resolveNode22(),
        args: [
          pi.cliPath,
          "--mode",
          "rpc",
          "--provider",
          provider,
          "--model",
          model,
          "-e",
          demoExtension,
        ],
      },
      label: `${provider}/${model}`,
      scripted: false,
      close: async () => {},
    };
  }
  // The page's suggestions are natural language; the scripted model answers each as the
  // behaviour it stands for.
  const server: ModelServer = await startModelServer({ prompts: scriptedPrompts() });
  if (workspace !== undefined) mkdirSync(workspace, { recursive: true, mode: 0o700 });
  const command = piCommand({
    version: "1",
    baseUrl: server.baseUrl,
    extensions: [demoExtension],
    ...(workspace === undefined ? {} : { cwd: workspace }),
  });
  return {
    // The bridge gives each session its own --session-dir (the demo chooses where).
    spec: sessionHostOptions(command).pi,
    label: "scripted model (no API key; the page suggests what to try)",
    scripted: true,
    async close() {
      await server.close();
      command.dispose();
    },
  };
}
