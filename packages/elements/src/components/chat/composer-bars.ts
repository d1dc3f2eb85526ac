/**
 * What `<pi-chat>` shows around its composer besides dialogs and notifications, always: extension
 * widgets (the queued messages and the watch bar load when first shown: control-bars.ts).
 */
import type { SessionSnapshot } from "@pi-kit/client";
import { html } from "lit";

/** The extension widgets placed above or below the editor. */
export function widgetsView(
  snapshot: SessionSnapshot | undefined,
  placement: "aboveEditor" | "belowEditor",
): unknown {
  return [...(snapshot?.ui.widgets ?? [])]
    .filter(([, w]) => w.placement === placement)
    .map(
      ([key, w]) =>
        html`<div part="widget" class="widget" data-key=${key}>${w.lines.map((line) => html`<div>${line}</div>`)}</div>`,
    );
}
