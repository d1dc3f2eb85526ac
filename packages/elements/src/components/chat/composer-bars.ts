/**
 * What `<pi-chat>` shows around its composer besides dialogs and notifications: the queued
 * messages, the watch bar of a viewer that is not in control, and extension widgets.
 */
import type { ControlState, SessionSnapshot } from "@pi-kit/client";
import { html, nothing } from "lit";
import { format } from "../../internal/i18n/format.ts";
import type { PiStrings } from "../../internal/i18n/i18n.ts";

/** The steering and follow-up messages pi has queued, with the button that takes them back. */
export function queueView(
  queue: SessionSnapshot["queue"] | undefined,
  s: PiStrings,
  restore: () => void,
): unknown {
  if (queue === undefined || queue.steering.length + queue.followUp.length === 0) return nothing;
  return html`<div part="queue" class="queue" aria-label=${s.queueTitle} role="group">
    <ul>
      ${queue.steering.map((text) => html`<li><span class="tag">${s.queueSteer}</span> ${text}</li>`)}
      ${queue.followUp.map((text) => html`<li><span class="tag">${s.queueFollowUp}</span> ${text}</li>`)}
    </ul>
    <button part="restore-button" @click=${restore}>${s.restoreQueue}</button>
  </div>`;
}

/** Who is in control, and the way to take it unless this connection may only watch. */
export function watchBar(
  control: ControlState | undefined,
  s: PiStrings,
  takeControl: () => void,
): unknown {
  const readOnly = control?.you.readOnly ?? false;
  const holder = control?.controller?.label;
  const line = readOnly
    ? s.watchingReadOnly
    : holder === undefined
      ? s.watchingNobody
      : format(s.watching, { name: holder });
  return html`<div part="watch-bar" class="watch" role="status">
    <span>${line}</span>
    ${
      readOnly
        ? nothing
        : html`<button part="take-control-button" @click=${takeControl}>${s.takeControl}</button>`
    }
  </div>`;
}

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
