/** Every live example by name, each loaded only when a page shows it. */
import type { LiveExample } from "./chat-examples.ts";

const chat = () => import("./chat-examples.ts");
const widgets = () => import("./widget-examples.ts");

export const EXAMPLES: Record<string, () => Promise<LiveExample>> = {
  "chat-thinking": () => chat().then((m) => m.chatThinking),
  "chat-streaming": () => chat().then((m) => m.chatStreaming),
  "tool-diff": () => chat().then((m) => m.toolDiff),
  "dialog-waiting": () => chat().then((m) => m.dialogWaiting),
  composer: () => widgets().then((m) => m.composer),
  "fork-picker": () => widgets().then((m) => m.forkPicker),
  markdown: () => widgets().then((m) => m.markdown),
  "model-picker": () => widgets().then((m) => m.modelPicker),
  provider: () => widgets().then((m) => m.provider),
  "session-list": () => widgets().then((m) => m.sessionList),
  "session-stats": () => widgets().then((m) => m.sessionStats),
  "session-tree": () => widgets().then((m) => m.sessionTree),
  "thinking-picker": () => widgets().then((m) => m.thinkingPicker),
  toasts: () => widgets().then((m) => m.toasts),
  theming: () => import("./theming-playground.ts").then((m) => m.themingPlayground),
};
