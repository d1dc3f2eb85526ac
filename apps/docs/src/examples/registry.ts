/** Every live example by name, each loaded only when a page shows it. */
import type { LiveExample } from "./chat-examples.ts";
import type { EditableName } from "./editable-names.ts";

const chat = () => import("./chat-examples.ts");
const widgets = () => import("./widget-examples.ts");
const editable = (name: EditableName) => () =>
  import("./editable.ts").then((m) => m.editable(name));

export const EXAMPLES: Record<string, () => Promise<LiveExample>> = {
  changes: () => import("./changes-example.ts").then((m) => m.changes),
  "chat-thinking": editable("chat-thinking"),
  "chat-streaming": () => chat().then((m) => m.chatStreaming),
  "tool-diff": editable("tool-diff"),
  "dialog-waiting": editable("dialog-waiting"),
  "chat-themed": editable("chat-themed"),
  composer: () => widgets().then((m) => m.composer),
  "fork-picker": () => widgets().then((m) => m.forkPicker),
  markdown: editable("markdown"),
  "model-picker": () => widgets().then((m) => m.modelPicker),
  provider: () => widgets().then((m) => m.provider),
  "session-list": () => widgets().then((m) => m.sessionList),
  "session-stats": () => widgets().then((m) => m.sessionStats),
  "session-tree": () => widgets().then((m) => m.sessionTree),
  "thinking-picker": () => widgets().then((m) => m.thinkingPicker),
  toasts: () => widgets().then((m) => m.toasts),
  theming: () => import("./theming-playground.ts").then((m) => m.themingPlayground),
};
