/**
 * The extension-UI sub-protocol: pi asks the client to show dialogs and UI state on behalf of
 * extensions. Identical on the wire in 0.73.1 and 1.x.
 */

/** Fields every extension-UI request has. */
interface UiRequestBase<M extends string> {
  readonly type: "extension_ui_request";
  /** A uuid; answer dialogs with it. Fire-and-forget requests have one too but need no answer. */
  readonly id: string;
  readonly method: M;
}

/**
 * Dialog deadline. pi resolves the dialog as cancelled after `timeout` ms but never tells the
 * client, so run your own timer and close the dialog.
 */
interface DialogTimeout {
  readonly timeout?: number;
}

/** Pick one of `options`; answer `{value}` or `{cancelled: true}`. */
export interface SelectRequest extends UiRequestBase<"select">, DialogTimeout {
  readonly title: string;
  readonly options: readonly string[];
}

/** Yes/no question; answer `{confirmed}` or `{cancelled: true}` (read as `false`). */
export interface ConfirmRequest extends UiRequestBase<"confirm">, DialogTimeout {
  readonly title: string;
  readonly message: string;
}

/** One line of text; answer `{value}` or `{cancelled: true}`. */
export interface InputRequest extends UiRequestBase<"input">, DialogTimeout {
  readonly title: string;
  readonly placeholder?: string;
}

/** Multi-line text; answer `{value}` or `{cancelled: true}`. Has no timeout (pi ignores one). */
export interface EditorRequest extends UiRequestBase<"editor"> {
  readonly title: string;
  readonly prefill?: string;
}

/** Show a notification. Fire and forget. */
export interface NotifyRequest extends UiRequestBase<"notify"> {
  readonly message: string;
  /** Absent means `info`. */
  readonly notifyType?: "info" | "warning" | "error";
}

/** Set or clear a keyed status line. Fire and forget. */
export interface SetStatusRequest extends UiRequestBase<"setStatus"> {
  readonly statusKey: string;
  /** Absent means "clear this status". */
  readonly statusText?: string;
}

/** Set or clear a keyed widget of text lines. Fire and forget. */
export interface SetWidgetRequest extends UiRequestBase<"setWidget"> {
  readonly widgetKey: string;
  /** Absent means "remove this widget". */
  readonly widgetLines?: readonly string[];
  /** Absent means above the editor. */
  readonly widgetPlacement?: "aboveEditor" | "belowEditor";
}

/** Set the window or page title. Fire and forget. */
export interface SetTitleRequest extends UiRequestBase<"setTitle"> {
  readonly title: string;
}

/** Replace the text of the user's input editor (also used for `pasteToEditor`). Fire and forget. */
export interface SetEditorTextRequest extends UiRequestBase<"set_editor_text"> {
  readonly text: string;
}

/** Any extension-UI request, discriminated on `method` (9). */
export type ExtensionUiRequest =
  | SelectRequest
  | ConfirmRequest
  | InputRequest
  | EditorRequest
  | NotifyRequest
  | SetStatusRequest
  | SetWidgetRequest
  | SetTitleRequest
  | SetEditorTextRequest;

/** The `method` of an {@link ExtensionUiRequest}. */
export type UiMethod = ExtensionUiRequest["method"];

/** Methods that wait for an {@link ExtensionUiResponse}. */
export type DialogMethod = "select" | "confirm" | "input" | "editor";

/** Methods that need no answer. */
export type FireAndForgetMethod = Exclude<UiMethod, DialogMethod>;

/** A dialog request. */
export type DialogRequest = Extract<ExtensionUiRequest, { readonly method: DialogMethod }>;

/** The request whose `method` is `M`. */
export type UiRequestOf<M extends UiMethod> = Extract<ExtensionUiRequest, { readonly method: M }>;

/** Answers a `select`, `input` or `editor` dialog. */
export interface ExtensionUiValueResponse {
  readonly type: "extension_ui_response";
  readonly id: string;
  readonly value: string;
}

/** Answers a `confirm` dialog. */
export interface ExtensionUiConfirmResponse {
  readonly type: "extension_ui_response";
  readonly id: string;
  readonly confirmed: boolean;
}

/** Cancels any dialog. */
export interface ExtensionUiCancelResponse {
  readonly type: "extension_ui_response";
  readonly id: string;
  readonly cancelled: true;
}

/**
 * A client's answer to a dialog. pi silently ignores unknown, missing or repeated ids and reads a
 * wrong form as cancelled, so check with `validateUiResponse`.
 */
export type ExtensionUiResponse =
  | ExtensionUiValueResponse
  | ExtensionUiConfirmResponse
  | ExtensionUiCancelResponse;
