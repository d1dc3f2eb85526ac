import type { PiClient } from "@pi-kit/client";

/**
 * Whether `text` runs one of pi's extension commands (as `get_commands` lists them). pi runs an
 * extension command sent as a `prompt` at once, even while it streams, but refuses one queued as
 * a steer or a follow-up; so during a run such a message goes as a prompt.
 */
export async function isExtensionCommand(client: PiClient, text: string): Promise<boolean> {
  const name = /^\/(\S+)/.exec(text)?.[1];
  if (name === undefined || !client.capabilities.supports("get_commands")) return false;
  const commands = await client.getCommands();
  return commands.some((command) => command.name === name && command.source === "extension");
}
