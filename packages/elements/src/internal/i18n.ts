/**
 * Translatable strings: one typed table per language (English and Simplified Chinese built in),
 * chosen per element from its `lang` or its nearest ancestor's, with per-element overrides. There
 * is no global registry: two chats on one page can speak different languages.
 */

/** Every user-visible string. `{name}` marks a placeholder filled by {@link format}. */
export interface PiStrings {
  transcript: string;
  composerLabel: string;
  placeholder: string;
  placeholderRunning: string;
  send: string;
  followUp: string;
  steer: string;
  stop: string;
  attachImage: string;
  removeImage: string;
  imageAlt: string;
  attachments: string;
  queueTitle: string;
  queueSteer: string;
  queueFollowUp: string;
  restoreQueue: string;
  jumpToBottom: string;
  showEarlier: string;
  responding: string;
  done: string;
  aborted: string;
  error: string;
  thinking: string;
  thinkingRedacted: string;
  toolPreparing: string;
  toolPending: string;
  toolRunning: string;
  toolDone: string;
  toolError: string;
  toolArguments: string;
  toolOutput: string;
  toolResult: string;
  you: string;
  assistant: string;
  shell: string;
  exitCode: string;
  cancelled: string;
  truncated: string;
  systemMessage: string;
  compaction: string;
  branchSummary: string;
  unknownMessage: string;
  connected: string;
  disconnected: string;
  connecting: string;
  reconnecting: string;
  /** Shown instead of the composer to a viewer that watches; `{name}` is the one in control. */
  watching: string;
  /** Watching while nobody is in control. */
  watchingNobody: string;
  /** Watching on a read-only connection, which can never take control. */
  watchingReadOnly: string;
  takeControl: string;
  noClient: string;
  retrying: string;
  compacting: string;
  context: string;
  tokens: string;
  cost: string;
  thinkingLevel: string;
  status: string;
  seconds: string;
  sendFailed: string;
  errorAttempts: string;
  errorHintAuth: string;
  errorHintNetwork: string;
  errorHintRate: string;
  errorHintServer: string;
  errorHintOther: string;
  keyboardHelp: string;
  // dialogs, toasts and pickers
  dialogCounter: string;
  dialogSecondsLeft: string;
  dialogTimeWarning: string;
  dialogTimedOut: string;
  dialogClosed: string;
  /** Under a dialog a watching viewer sees but cannot answer. */
  dialogWatching: string;
  dialogOk: string;
  dialogSubmit: string;
  dialogCancel: string;
  dialogYes: string;
  dialogNo: string;
  dialogSelectHint: string;
  dialogConfirmHint: string;
  dialogInputHint: string;
  dialogEditorHint: string;
  notifications: string;
  notifyWarning: string;
  notifyError: string;
  notifyDismiss: string;
  notifyDoneTitle: string;
  notifyErrorTitle: string;
  notifyAbortedTitle: string;
  notifyInputTitle: string;
  notifyEnable: string;
  notifyEnableHint: string;
  loading: string;
  loadFailed: string;
  refresh: string;
  modelLabel: string;
  modelNone: string;
  thinkingLabel: string;
  thinkingOff: string;
  thinkingMinimal: string;
  thinkingLow: string;
  thinkingMedium: string;
  thinkingHigh: string;
  thinkingXhigh: string;
  thinkingMax: string;
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
  treeHere: string;
  treeCannotFork: string;
  slashLabel: string;
  slashEmpty: string;
  slashCount: string;
  slashSourceExtension: string;
  slashSourcePrompt: string;
  slashSourceSkill: string;
  slashSourceBuiltin: string;
  // the session list
  sessionsLabel: string;
  sessionsNew: string;
  sessionsFilter: string;
  sessionsEmpty: string;
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
  justNow: string;
  retry: string;
  // message actions, markdown and tool views
  copy: string;
  copied: string;
  copyMessage: string;
  copyCode: string;
  editMessage: string;
  editSend: string;
  editCancel: string;
  thinkingState: string;
  loadImage: string;
  awaitingApproval: string;
  showAll: string;
  showLess: string;
  fileLines: string;
}

/** English (the fallback for missing keys and unknown languages). */
export const en: PiStrings = {
  transcript: "Conversation",
  composerLabel: "Message",
  placeholder: "Message pi…",
  placeholderRunning: "Queue a follow-up… (Esc stops)",
  send: "Send",
  followUp: "Follow up",
  steer: "Steer",
  stop: "Stop",
  attachImage: "Attach image",
  removeImage: "Remove image {name}",
  imageAlt: "Attached image {index}",
  attachments: "Attachments",
  queueTitle: "Queued messages",
  queueSteer: "Steer",
  queueFollowUp: "Follow-up",
  restoreQueue: "Edit queued",
  jumpToBottom: "Jump to latest",
  showEarlier: "Show {count} earlier messages",
  responding: "pi is responding",
  done: "pi is done",
  aborted: "Aborted",
  error: "Error",
  thinking: "Thinking",
  thinkingRedacted: "Thinking (redacted)",
  toolPreparing: "preparing",
  toolPending: "waiting",
  toolRunning: "running",
  toolDone: "done",
  toolError: "failed",
  toolArguments: "Arguments",
  toolOutput: "Output",
  toolResult: "Result",
  you: "You",
  assistant: "pi",
  shell: "Shell",
  exitCode: "exit code {code}",
  cancelled: "cancelled",
  truncated: "output truncated",
  systemMessage: "System prompt updated ({tools} tools)",
  compaction: "Context compacted ({tokens} tokens before)",
  branchSummary: "Summary of an abandoned branch",
  unknownMessage: "Unsupported message ({role})",
  connected: "Connected",
  disconnected: "Disconnected",
  connecting: "Connecting…",
  reconnecting: "Reconnecting…",
  watching: "Watching — {name} is in control",
  watchingNobody: "Watching — nobody is in control",
  watchingReadOnly: "Watching — read-only",
  takeControl: "Take control",
  noClient: "No client",
  retrying: "Retrying (attempt {attempt} of {max}) in {seconds} s",
  compacting: "Compacting context…",
  context: "Context {percent}%",
  tokens: "{input} in · {output} out",
  cost: "{currency}{cost}",
  thinkingLevel: "Thinking: {level}",
  status: "Status",
  seconds: "{seconds} s",
  sendFailed: "Could not send: {error}",
  errorAttempts: "{count} attempts failed",
  errorHintAuth: "Check the API key for this provider.",
  errorHintNetwork: "Check the network connection and the provider's address.",
  errorHintRate: "The provider is limiting requests: wait a moment, then try again.",
  errorHintServer: "The provider had a problem on its side: try again in a moment.",
  errorHintOther: "Check the API key and the network connection.",
  keyboardHelp:
    "Enter sends. Shift+Enter adds a line. While pi responds, Enter queues a follow-up, Ctrl+Enter steers, Escape stops, Alt+Up restores queued messages.",
  // dialogs, toasts and pickers
  dialogCounter: "{index} of {total}",
  dialogSecondsLeft: "{seconds} s left",
  dialogTimeWarning: "{seconds} seconds left to answer “{title}”",
  dialogTimedOut: "“{title}” timed out",
  dialogClosed: "“{title}” was closed",
  dialogWatching: "Only the viewer in control can answer",
  dialogOk: "OK",
  dialogSubmit: "Submit",
  dialogCancel: "Cancel",
  dialogYes: "Yes",
  dialogNo: "No",
  dialogSelectHint: "↑ ↓ to move, Enter to choose, Esc to cancel",
  dialogConfirmHint: "← → to switch, Enter to answer, Esc to cancel",
  dialogInputHint: "Enter to submit, Esc to cancel",
  dialogEditorHint: "Ctrl+Enter to submit, Esc to cancel",
  notifications: "Notifications",
  notifyWarning: "Warning",
  notifyError: "Error",
  notifyDismiss: "Dismiss notification",
  notifyDoneTitle: "pi finished",
  notifyErrorTitle: "pi stopped with an error",
  notifyAbortedTitle: "pi was stopped",
  notifyInputTitle: "pi needs your answer",
  notifyEnable: "Notify me",
  notifyEnableHint:
    "Show a desktop notification when pi finishes or needs you while this tab is hidden",
  loading: "Loading…",
  loadFailed: "Could not load: {error}",
  refresh: "Refresh",
  modelLabel: "Model",
  modelNone: "No model",
  thinkingLabel: "Thinking",
  thinkingOff: "Off",
  thinkingMinimal: "Minimal",
  thinkingLow: "Low",
  thinkingMedium: "Medium",
  thinkingHigh: "High",
  thinkingXhigh: "Extra high",
  thinkingMax: "Max",
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
    "Fork from “{text}”? A new session continues from before this message, which goes back into the editor.",
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
    "Branch before “{text}”? A new session continues from before this message, which goes back into the editor; this branch stays in the tree.",
  treeForkAfter: "Continue from here in a new session? This branch stays in the tree.",
  treeForkAction: "Branch here",
  treeHere: "The conversation is already here.",
  treeCannotFork:
    "pi branches only at the messages you wrote: choose one of them, or the entry just before one.",
  slashLabel: "Commands",
  slashEmpty: "No matching commands",
  slashCount: "{count} commands",
  slashSourceExtension: "extension",
  slashSourcePrompt: "prompt",
  slashSourceSkill: "skill",
  slashSourceBuiltin: "built-in",
  sessionsLabel: "Conversations",
  sessionsNew: "New chat",
  sessionsFilter: "Search conversations",
  sessionsEmpty: "No conversations yet",
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
  justNow: "just now",
  retry: "Try again",
  copy: "Copy",
  copied: "Copied",
  copyMessage: "Copy message",
  copyCode: "Copy code",
  editMessage: "Edit",
  editSend: "Send",
  editCancel: "Cancel",
  thinkingState: "Thinking…",
  loadImage: "Load image from {host}",
  awaitingApproval: "awaiting approval",
  showAll: "Show all {count} lines",
  showLess: "Show less",
  fileLines: "lines {from}–{to}",
};

/** Simplified Chinese. */
export const zhCN: PiStrings = {
  transcript: "对话",
  composerLabel: "消息",
  placeholder: "给 pi 发消息…",
  placeholderRunning: "排队一条追加消息…（Esc 停止）",
  send: "发送",
  followUp: "追加",
  steer: "引导",
  stop: "停止",
  attachImage: "添加图片",
  removeImage: "移除图片 {name}",
  imageAlt: "附加图片 {index}",
  attachments: "附件",
  queueTitle: "排队中的消息",
  queueSteer: "引导",
  queueFollowUp: "追加",
  restoreQueue: "编辑排队消息",
  jumpToBottom: "跳到最新",
  showEarlier: "显示更早的 {count} 条消息",
  responding: "pi 正在回复",
  done: "pi 已完成",
  aborted: "已中止",
  error: "错误",
  thinking: "思考",
  thinkingRedacted: "思考（已隐去）",
  toolPreparing: "准备中",
  toolPending: "等待中",
  toolRunning: "运行中",
  toolDone: "完成",
  toolError: "失败",
  toolArguments: "参数",
  toolOutput: "输出",
  toolResult: "结果",
  you: "你",
  assistant: "pi",
  shell: "终端",
  exitCode: "退出码 {code}",
  cancelled: "已取消",
  truncated: "输出已截断",
  systemMessage: "系统提示已更新（{tools} 个工具）",
  compaction: "上下文已压缩（压缩前 {tokens} 个 token）",
  branchSummary: "已放弃分支的摘要",
  unknownMessage: "不支持的消息（{role}）",
  connected: "已连接",
  disconnected: "已断开",
  connecting: "正在连接…",
  reconnecting: "正在重连…",
  watching: "旁观中 — {name} 正在控制",
  watchingNobody: "旁观中 — 当前无人控制",
  watchingReadOnly: "旁观中 — 只读",
  takeControl: "接管控制",
  noClient: "无客户端",
  retrying: "{seconds} 秒后重试（第 {attempt}/{max} 次）",
  compacting: "正在压缩上下文…",
  context: "上下文 {percent}%",
  tokens: "输入 {input} · 输出 {output}",
  cost: "{currency}{cost}",
  thinkingLevel: "思考：{level}",
  status: "状态",
  seconds: "{seconds} 秒",
  sendFailed: "发送失败：{error}",
  errorAttempts: "{count} 次尝试均失败",
  errorHintAuth: "请检查该服务商的 API 密钥。",
  errorHintNetwork: "请检查网络连接和服务商地址。",
  errorHintRate: "服务商正在限流：请稍候再试。",
  errorHintServer: "服务商出现故障：请稍后再试。",
  errorHintOther: "请检查 API 密钥和网络连接。",
  keyboardHelp:
    "Enter 发送，Shift+Enter 换行。pi 回复时，Enter 排队追加，Ctrl+Enter 引导，Esc 停止，Alt+↑ 取回排队消息。",
  // dialogs, toasts and pickers
  dialogCounter: "第 {index} 个，共 {total} 个",
  dialogSecondsLeft: "剩余 {seconds} 秒",
  dialogTimeWarning: "回答“{title}”还剩 {seconds} 秒",
  dialogTimedOut: "“{title}”已超时",
  dialogClosed: "“{title}”已关闭",
  dialogWatching: "只有正在控制的一方可以回答",
  dialogOk: "确定",
  dialogSubmit: "提交",
  dialogCancel: "取消",
  dialogYes: "是",
  dialogNo: "否",
  dialogSelectHint: "↑ ↓ 移动，Enter 选择，Esc 取消",
  dialogConfirmHint: "← → 切换，Enter 回答，Esc 取消",
  dialogInputHint: "Enter 提交，Esc 取消",
  dialogEditorHint: "Ctrl+Enter 提交，Esc 取消",
  notifications: "通知",
  notifyWarning: "警告",
  notifyError: "错误",
  notifyDismiss: "关闭通知",
  notifyDoneTitle: "pi 已完成",
  notifyErrorTitle: "pi 因错误停止",
  notifyAbortedTitle: "pi 已被停止",
  notifyInputTitle: "pi 需要你的回复",
  notifyEnable: "通知我",
  notifyEnableHint: "此标签页隐藏时，pi 完成或需要你时显示桌面通知",
  loading: "加载中…",
  loadFailed: "加载失败：{error}",
  refresh: "刷新",
  modelLabel: "模型",
  modelNone: "无模型",
  thinkingLabel: "思考",
  thinkingOff: "关闭",
  thinkingMinimal: "最少",
  thinkingLow: "低",
  thinkingMedium: "中",
  thinkingHigh: "高",
  thinkingXhigh: "超高",
  thinkingMax: "最高",
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
  forkConfirm: "从“{text}”分叉？新会话从这条消息之前继续，这条消息会放回编辑框。",
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
    "在“{text}”之前分支？新会话从这条消息之前继续，这条消息会放回编辑框；当前分支仍保留在树中。",
  treeForkAfter: "从这里在新会话中继续？当前分支仍保留在树中。",
  treeForkAction: "在此分支",
  treeHere: "对话已经在这里了。",
  treeCannotFork: "pi 只能在你写的消息处分支：请选择其中一条，或它之前的条目。",
  slashLabel: "命令",
  slashEmpty: "没有匹配的命令",
  slashCount: "{count} 个命令",
  slashSourceExtension: "扩展",
  slashSourcePrompt: "提示模板",
  slashSourceSkill: "技能",
  slashSourceBuiltin: "内置",
  sessionsLabel: "对话",
  sessionsNew: "新对话",
  sessionsFilter: "搜索对话",
  sessionsEmpty: "还没有对话",
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
  justNow: "刚刚",
  retry: "重试",
  copy: "复制",
  copied: "已复制",
  copyMessage: "复制消息",
  copyCode: "复制代码",
  editMessage: "编辑",
  editSend: "发送",
  editCancel: "取消",
  thinkingState: "思考中…",
  loadImage: "加载来自 {host} 的图片",
  awaitingApproval: "等待批准",
  showAll: "显示全部 {count} 行",
  showLess: "收起",
  fileLines: "第 {from}–{to} 行",
};

/** The built-in tables by BCP 47 tag. */
export const BUILT_IN_STRINGS: Readonly<Record<string, PiStrings>> = { en, "zh-CN": zhCN };

/** Picks the built-in table for a language tag: exact, then by primary subtag, else English. */
export function stringsFor(lang: string | undefined, overrides?: Partial<PiStrings>): PiStrings {
  const tag = (lang ?? "").toLowerCase();
  const base = tag.startsWith("zh") ? zhCN : en;
  return overrides === undefined ? base : { ...base, ...overrides };
}

/** The language that applies to an element: its own `lang`, else the nearest ancestor's, across shadow roots. */
export function resolveLang(element: Element): string {
  let node: Element | null = element;
  while (node !== null) {
    const lang = node.getAttribute("lang");
    if (lang) return lang;
    const parent: Element | null = node.parentElement;
    if (parent !== null) node = parent;
    else {
      const root = node.getRootNode();
      node = root instanceof ShadowRoot ? root.host : null;
    }
  }
  return "en";
}

/** Fills `{name}` placeholders. */
export function format(
  template: string,
  values: Readonly<Record<string, string | number>>,
): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}
