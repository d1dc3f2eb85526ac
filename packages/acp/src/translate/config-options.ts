/**
 * pi's model and thinking level as ACP session config options (`category` `model` and
 * `thought_level`), and an option the editor set back as the pi command that applies it.
 */
import type { SessionConfigOption } from "@agentclientprotocol/sdk";
import type { PiClient } from "@pi-kit/client";
import type { ThinkingLevel } from "@pi-kit/protocol";

/** The config option ids this agent offers. */
export const MODEL_OPTION = "model";
/** The thinking level's option id. */
export const THINKING_OPTION = "thinking_level";

/** A model's option value: `provider/id` (ids may contain slashes, so the first one splits). */
const modelValue = (provider: string, id: string): string => `${provider}/${id}`;

/** The session's config options as pi reports them now. */
export async function configOptions(client: PiClient): Promise<SessionConfigOption[]> {
  const state = await client.getState();
  const models = await client.getAvailableModels();
  const options: SessionConfigOption[] = [];
  if (state.model !== undefined) {
    options.push({
      type: "select",
      id: MODEL_OPTION,
      name: "Model",
      category: "model",
      currentValue: modelValue(state.model.provider, state.model.id),
      options: models.map((model) => ({
        value: modelValue(model.provider, model.id),
        name: model.name,
        description: model.provider,
      })),
    });
  }
  // pi 0.73 cannot list the levels: it offers the current one only.
  const levels = client.capabilities.supports("get_available_thinking_levels")
    ? await client.getAvailableThinkingLevels()
    : [state.thinkingLevel];
  options.push({
    type: "select",
    id: THINKING_OPTION,
    name: "Thinking",
    category: "thought_level",
    currentValue: state.thinkingLevel,
    options: levels.map((level) => ({ value: level, name: level })),
  });
  return options;
}

/** Applies the editor's choice of `value` for option `id`; false for an option this agent has not. */
export async function setConfigOption(
  client: PiClient,
  id: string,
  value: string,
): Promise<boolean> {
  if (id === MODEL_OPTION) {
    const slash = value.indexOf("/");
    if (slash <= 0) throw new TypeError(`"${value}" is not a model (provider/id)`);
    await client.setModel(value.slice(0, slash), value.slice(slash + 1));
    return true;
  }
  if (id === THINKING_OPTION) {
    await client.setThinkingLevel(value as ThinkingLevel);
    return true;
  }
  return false;
}
