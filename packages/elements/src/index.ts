/**
 * @module
 * Lit custom elements for the pi coding agent. This entry exports the classes without
 * registering any tag; import `@pi-kit/elements/define` to register them all. `<pi-changes>` and
 * `<pi-pair>`, which a page loads when it shows them, are types here: `@pi-kit/elements/changes`
 * and `@pi-kit/elements/pair` have their classes and register them.
 */

// <pi-changes> loads when a page shows it: its classes are values of `@pi-kit/elements/changes`.
export type { PiChanges } from "./components/changes/pi-changes.ts";
export { PiChat } from "./components/chat/pi-chat.ts";
export { PiComposer } from "./components/chat/pi-composer.ts";
export { type MessageAction, PiMessage } from "./components/chat/pi-message.ts";
export { PiMessageList } from "./components/chat/pi-message-list.ts";
export { PiToolCall } from "./components/chat/pi-tool-call.ts";
export { PiDialog, type PiDialogItem } from "./components/dialog/pi-dialog.ts";
export { PiForkPicker } from "./components/fork-picker/pi-fork-picker.ts";
export { PiMarkdown } from "./components/markdown/pi-markdown.ts";
export { PiModelPicker } from "./components/model-picker/pi-model-picker.ts";
// <pi-pair> too: `@pi-kit/elements/pair`.
export type {
  PairingMinter,
  PairingOffer,
  PiPair,
} from "./components/pair/pi-pair.ts";
export { PiPermissionPicker } from "./components/permission-picker/pi-permission-picker.ts";
export { PiProvider } from "./components/provider/pi-provider.ts";
export { PiSessionList } from "./components/session-list/pi-session-list.ts";
export { PiSessionStats } from "./components/session-stats/pi-session-stats.ts";
export { PiSessionTree } from "./components/session-tree/pi-session-tree.ts";
export { PiSlashMenu, type SlashInput } from "./components/slash-menu/pi-slash-menu.ts";
export {
  levelsForModel,
  PiThinkingPicker,
} from "./components/thinking-picker/pi-thinking-picker.ts";
export { type PiToast, PiToasts, type ToastType } from "./components/toasts/pi-toasts.ts";
// `<pi-changes>`'s events are values of `@pi-kit/elements/changes`, like its class.
export type { PiRevertFileEvent, PiUndoTurnEvent } from "./events/events.ts";
// The events the elements fire, all in src/events/ (one file per event type).
export {
  ComposerSubmitEvent,
  type CopyKind,
  type DialogCancelReason,
  type NotifySource,
  PiAbortEvent,
  PiCopyEvent,
  PiDialogAnswerEvent,
  PiDialogCancelEvent,
  PiEditEvent,
  PiErrorEvent,
  PiForkEvent,
  PiForkedEvent,
  PiModelChangeEvent,
  PiNotifyEvent,
  PiPermissionChangeEvent,
  PiRestoreQueueEvent,
  PiRetryEvent,
  PiSendEvent,
  PiSessionCreateEvent,
  PiSessionDeletedEvent,
  PiSessionDeleteEvent,
  PiSessionRenameEvent,
  PiSessionSelectEvent,
  PiSlashSelectEvent,
  PiThinkingChangeEvent,
  PiTokenRequestEvent,
  PiTreeSelectEvent,
  type SendMode,
} from "./events/events.ts";
export {
  SrcController,
  type SrcHost,
  type TokenSource,
} from "./internal/controllers/src-controller.ts";
export type { PiChangesStrings } from "./internal/i18n/changes-strings.ts";
export { format } from "./internal/i18n/format.ts";
export type { PiStrings } from "./internal/i18n/i18n.ts";
export { en } from "./internal/i18n/locales/en.ts";
export type { PiPairStrings } from "./internal/i18n/pair-strings.ts";
export type { PiSessionStrings } from "./internal/i18n/session-strings.ts";
export { type RenderOptions, renderMarkdown, SAFE_URL } from "./internal/markdown/markdown.ts";
export { loadMarkdown } from "./internal/markdown/markdown-loader.ts";
export {
  type NotifyPermission,
  RunNotifier,
  type RunNotifierOptions,
} from "./internal/notifications/run-notifier.ts";
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
export { FIXED_TOKENS, TOKENS, tokenStyles } from "./styles/tokens.ts";
