import type { AgentMessage, SessionEntry } from "@pi-kit/protocol";
import { format, textOf } from "../../internal/i18n/format.ts";
import type { PiStrings } from "../../internal/i18n/i18n.ts";
import type { PiSessionStrings } from "../../internal/i18n/session-strings.ts";

/** Longest summary shown for one entry; the tree is for finding a point, not reading it. */
const MAX = 120;

/** Who wrote an entry or what it set (a short tag, empty when the text says it) and a one-line summary. */
export interface EntryLabel {
  readonly kind: string;
  readonly text: string;
}

/** Describes an entry in one line. Unknown entry types (a newer pi) show their type. */
export function entryLabel(entry: SessionEntry, s: PiStrings & PiSessionStrings): EntryLabel {
  switch (entry.type) {
    case "message":
      return messageLabel(entry.message, s);
    case "model_change":
      return { kind: s.modelLabel, text: `${entry.provider}/${entry.modelId}` };
    case "thinking_level_change":
      return { kind: s.thinkingLabel, text: entry.thinkingLevel };
    case "compaction":
      return { kind: "", text: format(s.compaction, { tokens: entry.tokensBefore }) };
    case "branch_summary":
      return { kind: "", text: `${s.branchSummary}: ${line(entry.summary)}` };
    case "label":
      return { kind: "", text: format(s.treeLabelEntry, { label: entry.label ?? "" }) };
    case "session_info":
      return { kind: "", text: format(s.treeName, { name: entry.name ?? "" }) };
    case "custom":
    case "custom_message":
      return { kind: "", text: format(s.treeCustom, { type: entry.customType }) };
    default:
      // pi's own identifier is the best name for an entry type this version does not know.
      return { kind: (entry as { type: string }).type, text: "" };
  }
}

function messageLabel(message: AgentMessage, s: PiStrings & PiSessionStrings): EntryLabel {
  switch (message.role) {
    case "user":
      return { kind: s.you, text: line(textOf(message.content)) };
    case "assistant": {
      const text = textOf(message.content);
      const tools = message.content.flatMap((block) =>
        block.type === "toolCall" ? [block.name] : [],
      );
      return {
        kind: s.assistant,
        text: line(text || (tools.length ? `→ ${tools.join(", ")}` : "")),
      };
    }
    case "toolResult":
      return { kind: "", text: format(s.treeToolResult, { tool: message.toolName }) };
    case "bashExecution":
      return { kind: s.shell, text: line(`$ ${message.command}`) };
    case "system":
      return {
        kind: "",
        text: format(s.systemMessage, { tools: message.toolsAdded?.length ?? 0 }),
      };
    case "custom":
      return {
        kind: "",
        text: `${format(s.treeCustom, { type: message.customType })}: ${line(textOf(message.content))}`,
      };
    case "branchSummary":
      return { kind: "", text: `${s.branchSummary}: ${line(message.summary)}` };
    case "compactionSummary":
      return { kind: "", text: format(s.compaction, { tokens: message.tokensBefore }) };
    default:
      return { kind: (message as { role: string }).role, text: "" };
  }
}

function line(text: string): string {
  const first = text.trim().replace(/\s+/g, " ");
  return first.length > MAX ? `${first.slice(0, MAX - 1)}…` : first;
}
