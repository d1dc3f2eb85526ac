/** The demo shell's own strings; the pi elements bring theirs. */
const en = {
  title: "pi-kit demo",
  history: "Chats",
  untitled: "New conversation",
  opening: "Opening the conversation…",
  openMenu: "Open the chat list",
  closeMenu: "Close the chat list",
  openPanel: "Show session details",
  closePanel: "Hide session details",
  panelTitle: "Session",
  toDark: "Switch to dark theme",
  toLight: "Switch to light theme",
  language: "中文",
  languageLabel: "切换到中文",
  stats: "Statistics",
  fork: "Fork from a message",
  tree: "Session tree",
  showInternal: "Show internal notices",
  scripted: "Scripted model · no API key",
  reconnecting: "Connection lost. Reconnecting…",
  retryNow: "Retry now",
  piStopped: "pi stopped (exit code {code}).",
  piKilled: "pi was stopped by {signal}.",
  restart: "Restart pi",
  closed: "This conversation was closed on the server.",
  reopen: "Reopen",
  failed: "The connection failed: {reason}",
  retry: "Try again",
  restarted: "The server restarted; the conversation was reopened.",
  reload: "Reload page",
  dismiss: "Dismiss",
  tokenTitle: "Open the demo with its access token",
  tokenMissing:
    "This page needs the access token that the server printed when it started. Open the address it printed (it ends in {hint}).",
  tokenRejected:
    "The server did not accept this tab's access token: it was restarted with a new one. Open the address it printed now, or paste it here.",
  tokenPaste: "Address or token",
  tokenPlaceholder: "{origin}/#token=…",
  tokenSubmit: "Connect",
  tokenInvalid: "That is not an address with #token=… nor a token.",
  tokenOtherTab: "Opening the address in another tab also reconnects this one.",
  welcome: "What should pi do?",
  welcomeScripted:
    "pi runs for real here, answered by a scripted model: no API key needed. Pick one to see what the elements show.",
  welcomeModel: "pi runs with {model}. Ask anything, or start from one of these.",
} as const;

/** Every string the shell shows, by key. */
export type DemoStrings = { readonly [K in keyof typeof en]: string };

const zhCN: DemoStrings = {
  title: "pi-kit 演示",
  history: "对话",
  untitled: "新对话",
  opening: "正在打开对话…",
  openMenu: "打开对话列表",
  closeMenu: "关闭对话列表",
  openPanel: "显示会话详情",
  closePanel: "隐藏会话详情",
  panelTitle: "会话",
  toDark: "切换到深色主题",
  toLight: "切换到浅色主题",
  language: "EN",
  languageLabel: "Switch to English",
  stats: "统计",
  fork: "从消息分叉",
  tree: "会话树",
  showInternal: "显示内部通知",
  scripted: "脚本模型 · 无需 API 密钥",
  reconnecting: "连接中断，正在重连…",
  retryNow: "立即重试",
  piStopped: "pi 已停止（退出码 {code}）。",
  piKilled: "pi 被 {signal} 终止。",
  restart: "重启 pi",
  closed: "此对话已在服务器上关闭。",
  reopen: "重新打开",
  failed: "连接失败：{reason}",
  retry: "重试",
  restarted: "服务器已重启，对话已重新打开。",
  reload: "重新加载页面",
  dismiss: "关闭",
  tokenTitle: "请用访问令牌打开演示",
  tokenMissing: "此页面需要服务器启动时打印的访问令牌。请打开它打印的地址（以 {hint} 结尾）。",
  tokenRejected:
    "服务器不接受此标签页的访问令牌：它已用新令牌重启。请打开它现在打印的地址，或将地址粘贴到这里。",
  tokenPaste: "地址或令牌",
  tokenPlaceholder: "{origin}/#token=…",
  tokenSubmit: "连接",
  tokenInvalid: "这既不是带 #token=… 的地址，也不是令牌。",
  tokenOtherTab: "在另一个标签页中打开该地址，也会让此页重新连接。",
  welcome: "想让 pi 做什么？",
  welcomeScripted:
    "这里运行的是真正的 pi，由脚本模型作答：无需 API 密钥。选一个看看各个元素的效果。",
  welcomeModel: "pi 正在使用 {model}。可以随意提问，或从下面开始。",
};

/** The shell's strings per language. */
export const demoStrings = { en, "zh-CN": zhCN } as const satisfies Record<string, DemoStrings>;

/** A language the demo speaks. */
export type DemoLang = keyof typeof demoStrings;
