/**
 * How one pi tool call looks in ACP: its kind, title, the files it touches, and its content
 * (an `edit` or `write` as diffs, any other tool's output as text).
 */
import type {
  ToolCall,
  ToolCallContent,
  ToolCallLocation,
  ToolKind,
} from "@agentclientprotocol/sdk";

/** The ACP kind of pi's built-in tools; any other tool (an extension's) is `other`. */
const KINDS: Readonly<Record<string, ToolKind>> = {
  read: "read",
  edit: "edit",
  write: "edit",
  bash: "execute",
  grep: "search",
  find: "search",
  ls: "search",
};

/** The ACP kind of tool `name`. */
export function toolKind(name: string): ToolKind {
  return KINDS[name] ?? "other";
}

/** The arguments as a record (pi sends `{}` for arguments the model garbled). */
function record(args: unknown): Record<string, unknown> {
  return typeof args === "object" && args !== null ? (args as Record<string, unknown>) : {};
}

const text = (value: unknown): string | undefined =>
  typeof value === "string" ? value : undefined;

/** A short title an editor shows for the call: the command for bash, the path for file tools. */
export function toolTitle(name: string, args: unknown): string {
  const a = record(args);
  const command = text(a.command);
  if (name === "bash" && command !== undefined) return command;
  const path = text(a.path);
  if (path !== undefined) return `${name} ${path}`;
  const pattern = text(a.pattern);
  if (pattern !== undefined) return `${name} ${pattern}`;
  return name;
}

/** The files the call touches, for the editor to follow. */
export function toolLocations(args: unknown): ToolCallLocation[] {
  const path = text(record(args).path);
  return path === undefined ? [] : [{ path }];
}

/**
 * The diffs an `edit` or `write` proposes, from its arguments: no file is read, so an edit's diff
 * shows the replaced text rather than the whole file (as other ACP agents do). Empty for other tools.
 */
export function toolDiffs(name: string, args: unknown): ToolCallContent[] {
  const a = record(args);
  const path = text(a.path);
  if (path === undefined) return [];
  if (name === "write") {
    const content = text(a.content);
    return content === undefined ? [] : [{ type: "diff", path, oldText: null, newText: content }];
  }
  if (name !== "edit") return [];
  // pi 1.x sends `edits: [{oldText, newText}]`; 0.73 sends one `oldText`/`newText` pair.
  const edits = Array.isArray(a.edits) ? a.edits.map(record) : [a];
  return edits.flatMap((edit): ToolCallContent[] => {
    const oldText = text(edit.oldText);
    const newText = text(edit.newText);
    return oldText === undefined || newText === undefined
      ? []
      : [{ type: "diff", path, oldText, newText }];
  });
}

/** The text of a tool result (or cumulative partial result) as ACP content; empty when it has none. */
export function resultContent(result: unknown): ToolCallContent[] {
  const content = record(result).content;
  if (!Array.isArray(content)) return [];
  const parts = content
    .map(record)
    .filter((block) => block.type === "text" && typeof block.text === "string")
    .map((block) => block.text as string);
  if (parts.length === 0) return [];
  return [{ type: "content", content: { type: "text", text: parts.join("\n") } }];
}

/** The fields of an ACP `tool_call` for pi's call `id` of tool `name`. */
export function toolCall(id: string, name: string, args: unknown): ToolCall {
  return {
    toolCallId: id,
    title: toolTitle(name, args),
    kind: toolKind(name),
    content: toolDiffs(name, args),
    locations: toolLocations(args),
    rawInput: args,
  };
}
