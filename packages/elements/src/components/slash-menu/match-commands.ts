import type { SlashCommand } from "@pi-kit/protocol";

/** Most commands the menu lists at once; typing narrows the rest down. */
const LIMIT = 50;

/**
 * Commands matching what was typed after `/`, best first: the name typed out in full, names
 * starting with the query, names containing it, then descriptions containing it (from two
 * letters); pi's order within each group.
 */
export function matchCommands(commands: readonly SlashCommand[], query: string): SlashCommand[] {
  const q = query.toLowerCase();
  const prefix: SlashCommand[] = [];
  const inName: SlashCommand[] = [];
  const inDescription: SlashCommand[] = [];
  for (const command of commands) {
    const name = command.name.toLowerCase();
    if (name === q) prefix.unshift(command);
    else if (name.startsWith(q)) prefix.push(command);
    else if (name.includes(q)) inName.push(command);
    // One letter found somewhere in a sentence is noise; descriptions count from two.
    else if (q.length > 1 && command.description?.toLowerCase().includes(q))
      inDescription.push(command);
  }
  return [...prefix, ...inName, ...inDescription].slice(0, LIMIT);
}
