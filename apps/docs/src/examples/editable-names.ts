/** The live examples with an Edit button (their scripts are in editable.ts). */
export const EDITABLE = [
  "chat-thinking",
  "tool-diff",
  "dialog-waiting",
  "markdown",
  "chat-themed",
] as const;

/** The name of an editable example. */
export type EditableName = (typeof EDITABLE)[number];

/** Whether the example `name` can be edited. */
export const isEditable = (name: string): name is EditableName =>
  (EDITABLE as readonly string[]).includes(name);
