/** The demo shell's own strings; the pi elements bring theirs. */
export const demoStrings = {
  en: {
    title: "pi-kit demo",
    sessions: "Sessions",
    newSession: "New session",
    closeSession: "Close",
    theme: "Theme",
    dark: "Dark",
    light: "Light",
    language: "中文",
    stats: "Statistics",
    fork: "Fork from a message",
    tree: "Session tree",
    restart: "Restart pi",
    piStopped: "pi stopped (exit code {code}).",
    piClosed: "The connection to pi closed: {reason}.",
    connecting: "Connecting…",
    reconnecting: "Connection lost, reconnecting (attempt {attempt})…",
    noToken: "Open the URL that `npm start` printed: it carries the access token.",
    tryIt:
      "Try: [[bash ls -la]] · [[think plan]] [[text ok]] · [[slow 200ms x 20]] · /demo-confirm · /demo-two · /demo-notify · /demo-widgets",
  },
  "zh-CN": {
    title: "pi-kit 演示",
    sessions: "会话",
    newSession: "新建会话",
    closeSession: "关闭",
    theme: "主题",
    dark: "深色",
    light: "浅色",
    language: "English",
    stats: "统计",
    fork: "从消息分叉",
    tree: "会话树",
    restart: "重启 pi",
    piStopped: "pi 已停止（退出码 {code}）。",
    piClosed: "与 pi 的连接已关闭：{reason}。",
    connecting: "正在连接…",
    reconnecting: "连接中断，正在重连（第 {attempt} 次）…",
    noToken: "请打开 `npm start` 打印的网址：其中带有访问令牌。",
    tryIt:
      "试试：[[bash ls -la]] · [[think plan]] [[text ok]] · [[slow 200ms x 20]] · /demo-confirm · /demo-two · /demo-notify · /demo-widgets",
  },
} as const;

/** A language the demo speaks. */
export type DemoLang = keyof typeof demoStrings;

/** Fills `{name}` placeholders. */
export function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (_, key: string) => String(values[key] ?? ""));
}
