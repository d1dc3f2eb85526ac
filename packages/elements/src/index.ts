/**
 * @module
 * Lit custom elements for the pi coding agent. This entry exports the classes without
 * registering any tag; import `@pi-kit/elements/define` to register them all.
 */

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
export { flattenTree, type TreeRow } from "./components/session-tree/tree-rows.ts";
export { matchCommands } from "./components/slash-menu/match-commands.ts";
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
  PiNotifyEvent,
  type PiToast,
  PiToasts,
  type ToastType,
} from "./components/toasts/pi-toasts.ts";
export {
  ConnectionController,
  type ConnectionHost,
  type ConnectionOptions,
} from "./internal/connection-controller.ts";
export { connectionOf, type PiConnection, piConnectionContext } from "./internal/context.ts";
export { type CopyKind, PiCopyEvent } from "./internal/copy.ts";
export {
  PiAbortEvent,
  PiErrorEvent,
  PiRestoreQueueEvent,
  PiSendEvent,
  type SendMode,
} from "./internal/events.ts";
export {
  BUILT_IN_STRINGS,
  en,
  format,
  type PiStrings,
  resolveLang,
  stringsFor,
  zhCN,
} from "./internal/i18n.ts";
export { moveIndex, Typeahead } from "./internal/list-navigation.ts";
export { LocaleController, type LocaleHost } from "./internal/locale-controller.ts";
export { type RenderOptions, renderMarkdown, SAFE_URL } from "./internal/markdown.ts";
export { MarkdownBlocks } from "./internal/markdown-blocks.ts";
export { loadCompletion, loadMarkdown } from "./internal/markdown-loader.ts";
export { RafCoalescer } from "./internal/raf-coalescer.ts";
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
  PiTokenRequestEvent,
  SrcController,
  type SrcHost,
  type TokenSource,
} from "./internal/src-controller.ts";
export { SessionController } from "./internal/store-controller.ts";
export {
  type NotifyPermission,
  RunNotifier,
  type RunNotifierOptions,
} from "./notifications/run-notifier.ts";
export { FIXED_TOKENS, TOKENS, tokenStyles } from "./styles/tokens.ts";
