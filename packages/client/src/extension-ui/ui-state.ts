import type { ExtensionUiRequest } from "@pi-kit/protocol";

/** Where an extension widget is shown. */
export type WidgetPlacement = "aboveEditor" | "belowEditor";

/** A keyed block of text lines set by an extension. */
export interface ExtensionWidget {
  readonly lines: readonly string[];
  readonly placement: WidgetPlacement;
}

/** Retained state of the fire-and-forget extension-UI methods (an immutable snapshot). */
export interface ExtensionUiState {
  /** Status lines by key. */
  readonly statuses: ReadonlyMap<string, string>;
  /** Widgets by key. */
  readonly widgets: ReadonlyMap<string, ExtensionWidget>;
  /** The title an extension set, if any. */
  readonly title: string | undefined;
  /** The last text an extension put into the input editor, if any. */
  readonly editorText: string | undefined;
}

/** The state before any extension-UI request. */
export const EMPTY_UI_STATE: ExtensionUiState = {
  statuses: new Map(),
  widgets: new Map(),
  title: undefined,
  editorText: undefined,
};

/**
 * Applies one fire-and-forget request and returns the next state (the same object when nothing
 * changed). A missing `statusText` or `widgetLines` means "clear", because JSON drops `undefined`.
 */
export function applyUiRequest(
  state: ExtensionUiState,
  request: ExtensionUiRequest,
): ExtensionUiState {
  switch (request.method) {
    case "setStatus": {
      const statuses = new Map(state.statuses);
      if (request.statusText === undefined) statuses.delete(request.statusKey);
      else statuses.set(request.statusKey, request.statusText);
      return { ...state, statuses };
    }
    case "setWidget": {
      const widgets = new Map(state.widgets);
      if (request.widgetLines === undefined) widgets.delete(request.widgetKey);
      else
        widgets.set(request.widgetKey, {
          lines: request.widgetLines,
          placement: request.widgetPlacement ?? "aboveEditor",
        });
      return { ...state, widgets };
    }
    case "setTitle":
      return { ...state, title: request.title };
    case "set_editor_text":
      return { ...state, editorText: request.text };
    default:
      return state;
  }
}
