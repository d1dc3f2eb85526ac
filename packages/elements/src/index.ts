/**
 * @module
 * Lit custom elements for the pi coding agent. This entry exports the classes without
 * registering any tag; import `@pi-kit/elements/define` to register them all. `<pi-changes>`,
 * which a page loads when it shows it, is a type here: `@pi-kit/elements/changes` has its classes
 * and registers it.
 */

// <pi-changes> loads when a page shows it: its classes are values of `@pi-kit/elements/changes`.
export type {
  PiRevertFileEvent,
  PiUndoTurnEvent,
} from "./components/changes/changes-events.ts";
export type { PiChanges } from "./components/changes/pi-changes.ts";
export { PiEditEvent, PiRetryEvent } from "./components/chat/message-events.ts";
export { PiChat } from "./components/chat/pi-chat.ts";
export { ComposerSubmitEvent, PiComposer } from "./components/chat/pi-composer.ts";
export { type MessageAction, PiMessage } from "./components/chat/pi-message.ts";
export { PiMessageList } from "./components/chat/pi-message-list.ts";
export { PiToolCall } from "./components/chat/pi-tool-call.ts";
export {
  type DialogCancelReason,
  PiDialogAnswerEvent,
  PiDialogCancelEvent,
} from "./components/dialog/dialog-events.ts";
export { PiDialog, type PiDialogItem } from "./components/dialog/pi-dialog.ts";
export {
  PiForkEvent,
  PiForkedEvent,
  PiForkPicker,
} from "./components/fork-picker/pi-fork-picker.ts";
export { PiMarkdown } from "./components/markdown/pi-markdown.ts";
export { PiModelChangeEvent, PiModelPicker } from "./components/model-picker/pi-model-picker.ts";
export {
  PiPermissionChangeEvent,
  PiPermissionPicker,
} from "./components/permission-picker/pi-permission-picker.ts";
export { PiProvider } from "./components/provider/pi-provider.ts";
export { PiSessionList } from "./components/session-list/pi-session-list.ts";
export {
  PiSessionCreateEvent,
  PiSessionDeletedEvent,
  PiSessionDeleteEvent,
  PiSessionRenameEvent,
  PiSessionSelectEvent,
} from "./components/session-list/session-list-events.ts";
export { PiSessionStats } from "./components/session-stats/pi-session-stats.ts";
export { PiSessionTree, PiTreeSelectEvent } from "./components/session-tree/pi-session-tree.ts";
export {
  PiSlashMenu,
  PiSlashSelectEvent,
  type SlashInput,
} from "./components/slash-menu/pi-slash-menu.ts";
export {
  levelsForModel,
  PiThinkingChangeEvent,
  PiThinkingPicker,
} from "./components/thinking-picker/pi-thinking-picker.ts";
export {
  type NotifySource,
  PiNotifyEvent,
  type PiToast,
  PiToasts,
  type ToastType,
} from "./components/toasts/pi-toasts.ts";
export {
  PiTokenRequestEvent,
  SrcController,
  type SrcHost,
  type TokenSource,
} from "./internal/controllers/src-controller.ts";
export { type CopyKind, PiCopyEvent } from "./internal/copy.ts";
export {
  PiAbortEvent,
  PiErrorEvent,
  PiRestoreQueueEvent,
  PiSendEvent,
  type SendMode,
} from "./internal/events.ts";
export type { PiChangesStrings } from "./internal/i18n/changes-strings.ts";
export { en, format, type PiStrings } from "./internal/i18n/i18n.ts";
export { type RenderOptions, renderMarkdown, SAFE_URL } from "./internal/markdown/markdown.ts";
export { loadMarkdown } from "./internal/markdown/markdown-loader.ts";
export type {
  MessageRenderContext,
  MessageRenderer,
  PiRenderers,
  Renderable,
  ToolRenderContext,
  ToolRenderer,
  ToolSlot,
  ToolStatus,
} from "./internal/renderers.ts";
export {
  type NotifyPermission,
  RunNotifier,
  type RunNotifierOptions,
} from "./notifications/run-notifier.ts";
export { FIXED_TOKENS, TOKENS, tokenStyles } from "./styles/tokens.ts";
