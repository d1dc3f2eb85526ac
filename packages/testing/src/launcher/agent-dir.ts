/**
 * Writes an isolated pi agent directory (`models.json`, `settings.json`) pointing at a model server.
 * @module
 */

import { writeFileSync } from "node:fs";
import { join } from "node:path";

/** Provider name the kit registers in `models.json`. */
export const PROVIDER = "pikit";

/** The plain scripted model. */
export const MODEL = "scripted";

/** The scripted model pi treats as reasoning-capable (`reasoning: true`). */
export const REASONING_MODEL = "scripted-reasoning";

/** Contents of the generated `models.json`. */
export function modelsJson(baseUrl: string): object {
  const model = (id: string, name: string, reasoning: boolean) => ({
    id,
    name,
    reasoning,
    input: ["text"],
    contextWindow: 128_000,
    maxTokens: 4096,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  });
  return {
    providers: {
      [PROVIDER]: {
        baseUrl,
        api: "openai-completions",
        // pi lists a provider only when it has a key; the scripted server ignores it.
        apiKey: "pikit-no-key",
        // A plain chat-completions server: `system` role, no `reasoning_effort` parameter.
        compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
        models: [
          model(MODEL, "Scripted", false),
          model(REASONING_MODEL, "Scripted (reasoning)", true),
        ],
      },
    },
  };
}

/** Contents of the generated `settings.json`: fast retries, no provider-level retries, no telemetry. */
export function settingsJson(): object {
  return {
    defaultProvider: PROVIDER,
    defaultModel: MODEL,
    // Agent-level retries stay on (tests exercise them) but back off in ms, not seconds.
    // Provider-level (SDK) retries are off so every retry is visible as RPC events.
    retry: {
      enabled: true,
      maxRetries: 3,
      baseDelayMs: 20,
      maxAgentDelayMs: 500,
      provider: { maxRetries: 0, timeoutMs: 60_000 },
    },
    enableInstallTelemetry: false,
    quietStartup: true,
  };
}

/** Writes `models.json` and `settings.json` into `agentDir`, merging `settings` over the defaults. */
export function writeAgentDir(
  agentDir: string,
  baseUrl: string,
  settings: Readonly<Record<string, unknown>> = {},
): void {
  const json = (value: object) => `${JSON.stringify(value, null, 2)}\n`;
  writeFileSync(join(agentDir, "models.json"), json(modelsJson(baseUrl)));
  writeFileSync(join(agentDir, "settings.json"), json({ ...settingsJson(), ...settings }));
}
