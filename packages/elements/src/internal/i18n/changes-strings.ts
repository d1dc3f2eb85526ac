/**
 * The strings of `<pi-changes>`, in English and Simplified Chinese. They are a table of their own,
 * imported by that element only, so a page that never opens a changes panel does not load them
 * (the shared words, such as Cancel and Loading, come from the elements' main table).
 */

/** Every string `<pi-changes>` shows; `{name}` placeholders are filled by `format`. */
export interface PiChangesStrings {
  changesLabel: string;
  changesSummaryOne: string;
  changesSummary: string;
  changesEmpty: string;
  changesFilesLabel: string;
  changesAdded: string;
  changesModified: string;
  changesDeleted: string;
  changesRenamed: string;
  changesRenamedFrom: string;
  changesBinary: string;
  changesShowDiff: string;
  changesNoTextDiff: string;
  /** A file over the checkpoint size cap, in place of line counts; `{size}` as `12.5 MiB`. */
  changesTooLarge: string;
  /** In place of the diff of a file over the checkpoint size cap. */
  changesTooLargeNoDiff: string;
  changesRevertFile: string;
  changesRevertFileLabel: string;
  changesRevertModified: string;
  changesRevertAdded: string;
  changesRevertDeleted: string;
  changesRevertRenamed: string;
  changesReverted: string;
  changesRuns: string;
  changesRunsLabel: string;
  changesUndoTurn: string;
  changesUndoTurnLabel: string;
  changesUndoConfirmOne: string;
  changesUndoConfirm: string;
  changesUndoNothing: string;
  changesUndone: string;
  changesSkipped: string;
  changesWatching: string;
  changesReadOnly: string;
  changesLoadFailed: string;
  changesDiffFailed: string;
  changesRevertFailed: string;
  changesUndoFailed: string;
  changesNoSource: string;
  changesRunInProgress: string;
  changesNotController: string;
  changesOff: string;
}

/** English. */
export const changesEn: PiChangesStrings = {
  changesLabel: "Changes",
  changesSummaryOne: "1 file changed since the session started",
  changesSummary: "{count} files changed since the session started",
  changesEmpty: "No files have changed since the session started.",
  changesFilesLabel: "Changed files",
  changesAdded: "Added",
  changesModified: "Modified",
  changesDeleted: "Deleted",
  changesRenamed: "Renamed",
  changesRenamedFrom: "from {path}",
  changesBinary: "binary",
  changesShowDiff: "Show the changes of {path}",
  changesNoTextDiff: "A binary file: no text diff to show.",
  changesTooLarge: "too large ({size})",
  changesTooLargeNoDiff:
    "Too large to keep in checkpoints: no diff to show, and it cannot be put back.",
  changesRevertFile: "Revert file",
  changesRevertFileLabel: "Revert file {path}",
  changesRevertModified:
    "Revert {path}: it goes back to how it was when the session started; its changes since are lost.",
  changesRevertAdded:
    "Revert {path}: the file did not exist when the session started, so it is deleted.",
  changesRevertDeleted: "Revert {path}: the deleted file comes back as it was.",
  changesRevertRenamed:
    "Revert {path}: it goes back to {oldPath}, as it was when the session started; its changes are lost.",
  changesReverted: "{path} is back as it was.",
  changesRuns: "Turns",
  changesRunsLabel: "Turns of this session, newest first",
  changesUndoTurn: "Undo this turn",
  changesUndoTurnLabel: "Undo this turn: “{label}”",
  changesUndoConfirmOne:
    "Undo this turn: 1 file goes back to how it was before “{label}”; changes made since are lost.",
  changesUndoConfirm:
    "Undo this turn: {count} files go back to how they were before “{label}”; changes made since are lost.",
  changesUndoNothing: "Nothing has changed since “{label}” started.",
  changesUndone: "The workspace is back to how it was before “{label}”.",
  changesSkipped: "Too large to keep in checkpoints (not revertible): {paths}",
  changesWatching: "Only the tab in control can revert files or undo turns; this one is watching.",
  changesReadOnly: "Read-only: reverting files and undoing turns are off.",
  changesLoadFailed: "Could not load the changes: {message}",
  changesDiffFailed: "Could not load the diff: {message}",
  changesRevertFailed: "Could not revert {path}: {message}",
  changesUndoFailed: "Could not undo the turn: {message}",
  changesNoSource: "No workspace to show.",
  changesRunInProgress: "pi is still working; try again when the run has ended",
  changesNotController: "only the tab in control can do this",
  changesOff: "checkpoints are off for this session",
};

/** Simplified Chinese. */
export const changesZhCN: PiChangesStrings = {
  changesLabel: "更改",
  changesSummaryOne: "自会话开始以来更改了 1 个文件",
  changesSummary: "自会话开始以来更改了 {count} 个文件",
  changesEmpty: "自会话开始以来没有文件被更改。",
  changesFilesLabel: "已更改的文件",
  changesAdded: "新增",
  changesModified: "修改",
  changesDeleted: "删除",
  changesRenamed: "重命名",
  changesRenamedFrom: "原为 {path}",
  changesBinary: "二进制",
  changesShowDiff: "显示 {path} 的更改",
  changesNoTextDiff: "二进制文件：没有可显示的文本差异。",
  changesTooLarge: "过大（{size}）",
  changesTooLargeNoDiff: "文件过大，未保存在检查点中：没有可显示的差异，也无法还原。",
  changesRevertFile: "还原文件",
  changesRevertFileLabel: "还原文件 {path}",
  changesRevertModified: "还原 {path}：恢复到会话开始时的样子；此后对它的更改将丢失。",
  changesRevertAdded: "还原 {path}：会话开始时该文件不存在，因此将删除它。",
  changesRevertDeleted: "还原 {path}：已删除的文件将按原样恢复。",
  changesRevertRenamed: "还原 {path}：恢复为会话开始时的 {oldPath}；其更改将丢失。",
  changesReverted: "{path} 已恢复原样。",
  changesRuns: "轮次",
  changesRunsLabel: "本会话的轮次，最新的在前",
  changesUndoTurn: "撤销这一轮",
  changesUndoTurnLabel: "撤销这一轮：“{label}”",
  changesUndoConfirmOne: "撤销这一轮：1 个文件将恢复到“{label}”之前的样子；此后的更改将丢失。",
  changesUndoConfirm: "撤销这一轮：{count} 个文件将恢复到“{label}”之前的样子；此后的更改将丢失。",
  changesUndoNothing: "自“{label}”开始以来没有任何更改。",
  changesUndone: "工作区已恢复到“{label}”之前的样子。",
  changesSkipped: "文件过大，未保存在检查点中（无法还原）：{paths}",
  changesWatching: "只有控制中的标签页可以还原文件或撤销轮次；此标签页正在观看。",
  changesReadOnly: "只读：还原文件和撤销轮次已关闭。",
  changesLoadFailed: "无法加载更改：{message}",
  changesDiffFailed: "无法加载差异：{message}",
  changesRevertFailed: "无法还原 {path}：{message}",
  changesUndoFailed: "无法撤销这一轮：{message}",
  changesNoSource: "没有可显示的工作区。",
  changesRunInProgress: "pi 仍在工作；请在本轮结束后重试",
  changesNotController: "只有控制中的标签页可以这样做",
  changesOff: "此会话的检查点已关闭",
};

/** The table for a language tag by its primary subtag, else English. */
export function changesStringsFor(lang: string): PiChangesStrings {
  return lang.toLowerCase().startsWith("zh") ? changesZhCN : changesEn;
}
