/**
 * The strings of the history elements (`<pi-session-list>`, `<pi-session-tree>`,
 * `<pi-session-stats>`, `<pi-fork-picker>`), in English and Simplified Chinese. They are a table of
 * their own, imported by those elements only, so a chat page that shows none of them does not
 * load them (the shared words, such as Cancel, come from the elements' main table).
 */

/** Every string the history elements show; `{name}` placeholders are filled by `format`. */
export interface PiSessionStrings {
  statsLabel: string;
  statsMessages: string;
  statsMessagesValue: string;
  statsToolCalls: string;
  statsInput: string;
  statsOutput: string;
  statsCache: string;
  statsCacheValue: string;
  statsCost: string;
  statsContext: string;
  statsContextValue: string;
  statsContextUnknown: string;
  statsEmpty: string;
  forkLabel: string;
  forkEmpty: string;
  forkHint: string;
  forkConfirm: string;
  forkAction: string;
  treeLabel: string;
  treeEmpty: string;
  treeUnsupported: string;
  treeCurrent: string;
  treeLabelEntry: string;
  treeName: string;
  treeToolResult: string;
  treeCustom: string;
  treeShowInternal: string;
  treeForkBefore: string;
  treeForkAfter: string;
  treeForkAction: string;
  treeVersions: string;
  treeVersionOpen: string;
  treeHere: string;
  treeCannotFork: string;
  sessionsLabel: string;
  sessionsNew: string;
  sessionsFilter: string;
  sessionsEmpty: string;
  sessionsNoEarlier: string;
  sessionsNoMatch: string;
  sessionsUntitled: string;
  sessionsRunning: string;
  sessionsDamaged: string;
  sessionsMessages: string;
  sessionsRename: string;
  sessionsRenameLabel: string;
  sessionsDelete: string;
  sessionsDeleteConfirm: string;
  sessionsDeleteAction: string;
  sessionsMore: string;
  sessionsHint: string;
  sessionsCount: string;
  sessionsCreateFailed: string;
  sessionsRenameFailed: string;
  sessionsDeleteFailed: string;
  sessionsForks: string;
  sessionsForkDetails: string;
  /** The badge that tells a fork (a version made by branching) from the conversation it came from. */
  sessionsForkBadge: string;
}

/** English. */
export const sessionStringsEn: PiSessionStrings = {
  statsLabel: "Session statistics",
  statsMessages: "Messages",
  statsMessagesValue: "{user} from you · {assistant} from pi",
  statsToolCalls: "Tool calls",
  statsInput: "Input tokens",
  statsOutput: "Output tokens",
  statsCache: "Cache",
  statsCacheValue: "{read} read · {write} written",
  statsCost: "Cost",
  statsContext: "Context",
  statsContextValue: "{percent}% of {window}",
  statsContextUnknown: "unknown until the next answer",
  statsEmpty: "No statistics yet",
  forkLabel: "Fork from a message",
  forkEmpty: "No messages to fork from yet",
  forkHint: "↑ ↓ to move, Enter to fork from the message",
  forkConfirm:
    "Fork from “{text}”? A new session continues from before this message, which goes back into the editor; the conversation as it is now is kept and can be reopened.",
  forkAction: "Fork",
  treeLabel: "Session tree",
  treeEmpty: "No entries yet",
  treeUnsupported: "The session tree needs pi 1.x",
  treeCurrent: "current",
  treeLabelEntry: "Label: {label}",
  treeName: "Session name: {name}",
  treeToolResult: "{tool} result",
  treeCustom: "Extension entry ({type})",
  treeShowInternal: "Show model and system changes",
  treeForkBefore:
    "Branch before “{text}”? A new session continues from before this message, which goes back into the editor; the conversation as it is now is kept and can be reopened.",
  treeForkAfter:
    "Continue from here in a new session? The conversation as it is now is kept and can be reopened.",
  treeForkAction: "Branch here",
  treeVersions: "Other versions of this conversation",
  treeVersionOpen: "Open the version “{title}”",
  treeHere: "The conversation is already here.",
  treeCannotFork:
    "pi branches only at the messages you wrote: choose one of them, or the entry just before one.",
  sessionsLabel: "Conversations",
  sessionsNew: "New chat",
  sessionsFilter: "Search conversations",
  sessionsEmpty: "No conversations yet",
  sessionsNoEarlier: "No earlier conversations",
  sessionsNoMatch: "No conversation matches “{query}”",
  sessionsUntitled: "New conversation",
  sessionsRunning: "running",
  sessionsDamaged: "Damaged: {reason}",
  sessionsMessages: "{count} messages",
  sessionsRename: "Rename “{title}”",
  sessionsRenameLabel: "New title for “{title}”",
  sessionsDelete: "Delete “{title}”",
  sessionsDeleteConfirm: "Delete “{title}” and its files for good?",
  sessionsDeleteAction: "Delete",
  sessionsMore: "Show more",
  sessionsHint: "↑ ↓ to move, Enter to open, F2 to rename, Delete to delete",
  sessionsCount: "{count} conversations",
  sessionsCreateFailed: "Could not start a conversation: {error}",
  sessionsRenameFailed: "Could not rename “{title}”: {error}",
  sessionsDeleteFailed: "Could not delete “{title}”: {error}",
  sessionsForks: "Other versions of “{title}”",
  sessionsForkDetails: "Open this version: {date} · {count} messages",
  sessionsForkBadge: "fork",
};

/** Simplified Chinese. */
export const sessionStringsZhCN: PiSessionStrings = {
  statsLabel: "会话统计",
  statsMessages: "消息",
  statsMessagesValue: "你 {user} 条 · pi {assistant} 条",
  statsToolCalls: "工具调用",
  statsInput: "输入 token",
  statsOutput: "输出 token",
  statsCache: "缓存",
  statsCacheValue: "读取 {read} · 写入 {write}",
  statsCost: "费用",
  statsContext: "上下文",
  statsContextValue: "{window} 的 {percent}%",
  statsContextUnknown: "下次回答后可知",
  statsEmpty: "暂无统计",
  forkLabel: "从消息分叉",
  forkEmpty: "还没有可分叉的消息",
  forkHint: "↑ ↓ 移动，Enter 从该消息分叉",
  forkConfirm:
    "从“{text}”分叉？新会话从这条消息之前继续，这条消息会放回编辑框；当前的对话会保留，可以再次打开。",
  forkAction: "分叉",
  treeLabel: "会话树",
  treeEmpty: "还没有条目",
  treeUnsupported: "会话树需要 pi 1.x",
  treeCurrent: "当前",
  treeLabelEntry: "标签：{label}",
  treeName: "会话名称：{name}",
  treeToolResult: "{tool} 结果",
  treeCustom: "扩展条目（{type}）",
  treeShowInternal: "显示模型和系统变更",
  treeForkBefore:
    "在“{text}”之前分支？新会话从这条消息之前继续，这条消息会放回编辑框；当前的对话会保留，可以再次打开。",
  treeForkAfter: "从这里在新会话中继续？当前的对话会保留，可以再次打开。",
  treeForkAction: "在此分支",
  treeVersions: "此对话的其他版本",
  treeVersionOpen: "打开版本“{title}”",
  treeHere: "对话已经在这里了。",
  treeCannotFork: "pi 只能在你写的消息处分支：请选择其中一条，或它之前的条目。",
  sessionsLabel: "对话",
  sessionsNew: "新对话",
  sessionsFilter: "搜索对话",
  sessionsEmpty: "还没有对话",
  sessionsNoEarlier: "没有更早的对话",
  sessionsNoMatch: "没有匹配“{query}”的对话",
  sessionsUntitled: "新对话",
  sessionsRunning: "运行中",
  sessionsDamaged: "已损坏：{reason}",
  sessionsMessages: "{count} 条消息",
  sessionsRename: "重命名“{title}”",
  sessionsRenameLabel: "“{title}”的新标题",
  sessionsDelete: "删除“{title}”",
  sessionsDeleteConfirm: "永久删除“{title}”及其文件？",
  sessionsDeleteAction: "删除",
  sessionsMore: "显示更多",
  sessionsHint: "↑ ↓ 移动，Enter 打开，F2 重命名，Delete 删除",
  sessionsCount: "{count} 个对话",
  sessionsCreateFailed: "无法开始对话：{error}",
  sessionsRenameFailed: "无法重命名“{title}”：{error}",
  sessionsDeleteFailed: "无法删除“{title}”：{error}",
  sessionsForks: "“{title}”的其他版本",
  sessionsForkDetails: "打开此版本：{date} · {count} 条消息",
  sessionsForkBadge: "分支",
};

/** The table for a language tag by its primary subtag, else English. */
export function sessionStringsFor(lang: string): PiSessionStrings {
  return lang.toLowerCase().startsWith("zh") ? sessionStringsZhCN : sessionStringsEn;
}
