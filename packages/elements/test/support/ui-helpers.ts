import { PiClient } from "@pi-kit/client";
import type { Model } from "@pi-kit/protocol";
import { FakePi, ok, STATE, type Written } from "../../../client/test/support/fake-pi.ts";

export { FakePi, ok, STATE, type Written };

/** A model as pi serialises it. */
export function model(
  provider: string,
  id: string,
  reasoning = false,
  extra: Partial<Model> = {},
): Model {
  return {
    id,
    name: id.toUpperCase(),
    api: "openai-completions",
    provider,
    baseUrl: "http://localhost",
    reasoning,
    input: ["text"],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 32000,
    maxTokens: 4000,
    ...extra,
  };
}

/**
 * A real PiClient on an in-memory pi. `data` answers commands by type (a function gets the
 * command); anything else gets FakePi's default answer.
 */
export async function connect(
  data: Record<string, unknown> = {},
  version: "0.73" | "1" = "1",
): Promise<{ pi: FakePi; client: PiClient }> {
  const pi = new FakePi(version);
  for (const [type, value] of Object.entries(data))
    pi.handlers.set(type, (command) => [
      ok(
        command,
        typeof value === "function" ? (value as (c: Written) => unknown)(command) : value,
      ),
    ]);
  const client = new PiClient(pi.transport, { capabilities: version });
  await client.getState();
  return { pi, client };
}

/** The commands of `type` the client wrote so far. */
export const sent = (pi: FakePi, type: string): Written[] =>
  pi.written.filter((c) => c.type === type);
