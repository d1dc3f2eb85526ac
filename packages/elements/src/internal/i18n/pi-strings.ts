/**
 * The table of every user-visible string, which each locale under `locales/` fills in (a file of
 * its own so the locales depend on it, not on the lookup that imports them).
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
  /** The attach button when the composer takes files of any kind (it has `uploads`). */
  attachFiles: string;
  removeImage: string;
  imageAlt: string;
  attachments: string;
  queueTitle: string;
  queueSteer: string;
  queueFollowUp: string;
  restoreQueue: string;
  jumpToBottom: string;
  jumpToLatestCount: string;
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
  toolDenied: string;
  toolAborted: string;
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
  /** The status while the bridge cannot be reached at all and the chat keeps trying. */
  bridgeUnreachable: string;
  /** The bridge refused the connection: the token is wrong. */
  refusedWrongToken: string;
  /** The bridge refused the connection: no token was given. */
  refusedMissingToken: string;
  /** The bridge refused the connection: this page's origin is not allowed. */
  refusedOrigin: string;
  /** The bridge refused the connection: too many sessions run (the chat retries). */
  refusedTooManySessions: string;
  /** The bridge closed the connection: the ticket expired. */
  refusedTicketExpired: string;
  /** The bridge refused the ticket (bad signature, audience, malformed, not yet valid). */
  refusedTicket: string;
  /** The bridge refused the connection for a reason named in `{reason}`. */
  refusedOther: string;
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
  permissionLabel: string;
  permissionAsk: string;
  permissionAutoEdits: string;
  permissionFull: string;
  thinkingOff: string;
  thinkingMinimal: string;
  thinkingLow: string;
  thinkingMedium: string;
  thinkingHigh: string;
  thinkingXhigh: string;
  thinkingMax: string;
  slashLabel: string;
  slashEmpty: string;
  slashCount: string;
  slashSourceExtension: string;
  slashSourcePrompt: string;
  slashSourceSkill: string;
  slashSourceBuiltin: string;
  justNow: string;
  retry: string;
  /** Asked before Try again: the answer shown is kept as another version. */
  retryConfirm: string;
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
  // what was sent and what pi is doing
  sendingWhenConnected: string;
  sending: string;
  progressWorking: string;
  progressTool: string;
  placeholderWatching: string;
}
