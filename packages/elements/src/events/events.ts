/**
 * Every event the pi elements fire, one file each, named after the event's type (`pi-send.ts`
 * holds `PiSendEvent`): a class that extends `Event`, carries its details as read-only fields and
 * adds itself to `GlobalEventHandlersEventMap`. `composer-submit` and `pi-mention-select` pass
 * between the package's own elements. The package entries choose which of these they export.
 */
export { ComposerSubmitEvent } from "./composer-submit.ts";
export { PiAbortEvent } from "./pi-abort.ts";
export { type CopyKind, PiCopyEvent } from "./pi-copy.ts";
export { PiDialogAnswerEvent } from "./pi-dialog-answer.ts";
export { type DialogCancelReason, PiDialogCancelEvent } from "./pi-dialog-cancel.ts";
export { PiEditEvent } from "./pi-edit.ts";
export { PiErrorEvent } from "./pi-error.ts";
export { PiForkEvent } from "./pi-fork.ts";
export { PiForkedEvent } from "./pi-forked.ts";
export { PiMentionSelectEvent } from "./pi-mention-select.ts";
export { PiModelChangeEvent } from "./pi-model-change.ts";
export { type NotifySource, PiNotifyEvent, type ToastType } from "./pi-notify.ts";
export { PiPermissionChangeEvent } from "./pi-permission-change.ts";
export { PiRestoreQueueEvent } from "./pi-restore-queue.ts";
export { PiRetryEvent } from "./pi-retry.ts";
export { PiRevertFileEvent } from "./pi-revert-file.ts";
export { PiSendEvent, type SendMode } from "./pi-send.ts";
export { PiSessionCreateEvent } from "./pi-session-create.ts";
export { PiSessionDeleteEvent } from "./pi-session-delete.ts";
export { PiSessionDeletedEvent } from "./pi-session-deleted.ts";
export { PiSessionRenameEvent } from "./pi-session-rename.ts";
export { PiSessionSelectEvent } from "./pi-session-select.ts";
export { PiSlashSelectEvent } from "./pi-slash-select.ts";
export { PiThinkingChangeEvent } from "./pi-thinking-change.ts";
export { PiTokenRequestEvent } from "./pi-token-request.ts";
export { PiTreeSelectEvent } from "./pi-tree-select.ts";
export { PiUndoTurnEvent } from "./pi-undo-turn.ts";
