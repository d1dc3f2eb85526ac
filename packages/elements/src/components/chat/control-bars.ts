/**
 * The bars `<pi-chat>` shows above its composer now and then: the messages pi has queued (with the
 * button that takes them back) and the watch bar of a viewer that is not in control. They load
 * when first shown (the chat waits for them before that render).
 * @module
 */
import type { ControlState, SessionSnapshot } from "@pi-kit/client";
import { css, html, nothing } from "lit";
import { format } from "../../internal/i18n/format.ts";
import type { PiStrings } from "../../internal/i18n/i18n.ts";

/** The bars' styles, adopted by the chat when they load. */
export const barStyles = [
  css`
    .queue {
      display: flex;
      gap: 0.6em;
      align-items: flex-start;
      font-size: 0.9em;
      border: 1px dashed var(--_color-border);
      border-radius: var(--_radius);
      padding: 0.4em 0.6em;
      margin-bottom: 0.4em;
    }
    .queue ul {
      flex: 1;
      list-style: none;
      margin: 0;
      padding: 0;
      white-space: pre-wrap;
      overflow-wrap: anywhere;
    }
    .queue .tag {
      font-size: 0.8em;
      color: var(--_color-muted);
      border: 1px solid var(--_color-border);
      border-radius: 0.3em;
      padding: 0 0.3em;
    }
    .watch {
      display: flex;
      gap: 0.6em;
      align-items: center;
      justify-content: space-between;
      font-size: 0.9em;
      color: var(--_color-muted);
      background: var(--_color-surface);
      border: 1px solid var(--_color-border);
      border-radius: var(--_radius);
      padding: 0.4em 0.6em;
      margin-bottom: 0.4em;
    }
    .watch button {
      flex: none;
      white-space: nowrap;
    }
  `,
];

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
