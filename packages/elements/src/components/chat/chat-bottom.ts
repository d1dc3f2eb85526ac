/**
 * What `<pi-chat>` shows under its transcript: the notifications, the dialog that belongs to no
 * tool call, extension widgets above and below the composer, the queue and watch bars (loaded
 * when first shown, control-bars.ts) and the composer.
 * @module
 */
import type { ControlState, FileSearch, SessionSnapshot, Uploads } from "@pi-kit/client";
import { html, nothing, type ReactiveElement, type TemplateResult } from "lit";
import type { ComposerSubmitEvent } from "../../events/composer-submit.ts";
import type { PiSendEvent, SendMode } from "../../events/pi-send.ts";
import type { PiConnection } from "../../internal/context.ts";
import type { PiStrings } from "../../internal/i18n/i18n.ts";
import { adoptPartStyles, LazyPart } from "../../internal/lazy-part.ts";
import type { PiDialogItem } from "../dialog/dialog-countdown.ts";

/** The queue and watch bars above the composer, loaded when first shown. */
export const barsPart = new LazyPart(() => import("./control-bars.ts"));

/**
 * Shows in the chat's notifications what went wrong through the client (a send pi refused, a
 * watcher's Stop, a failed action), not only as `pi-error`; a failed `connect` the status bar says.
 */
export function showErrors(chat: HTMLElement & { readonly renderRoot: ParentNode }): void {
  chat.addEventListener("pi-error", ({ action, error }) => {
    if (action !== "connect")
      chat.renderRoot
        .querySelector("pi-toasts")
        ?.show(error instanceof Error ? error.message : String(error), "error");
  });
}

/** Whether the bottom shows a bar: pi's queue, or the watch bar of a watcher (they load first). */
export function showsBars(queue: SessionSnapshot["queue"] | undefined, watching: boolean): boolean {
  return watching || (queue !== undefined && queue.steering.length + queue.followUp.length > 0);
}

/** Loads the bars for `host` when `needed` and they failed to before, and adopts their styles. */
export function loadBars(host: ReactiveElement, needed: boolean): void {
  const bars = barsPart.module;
  barsPart.reload(needed, host);
  if (bars !== undefined) adoptPartStyles(host, bars.barStyles);
}

/** The chat as its bottom area sees it: its settings, and the actions the controls call. */
export interface BottomHost {
  readonly noToasts: boolean;
  readonly noDialogs: boolean;
  /** The chat's own string overrides, handed to the toasts and the dialog. */
  readonly strings: Partial<PiStrings> | undefined;
  readonly fileSearch: FileSearch | undefined;
  readonly uploads: Uploads | undefined;
  send(text: string, options: { images?: PiSendEvent["images"]; mode?: SendMode }): Promise<void>;
  abort(): Promise<void>;
  restoreQueue(): Promise<void>;
  takeControl(): Promise<void>;
}

/** What the bottom area shows in one render, as the chat works it out. */
export interface BottomState {
  readonly snapshot: SessionSnapshot | undefined;
  readonly connection: PiConnection | undefined;
  readonly strings: PiStrings;
  /** Who is in control of a shared bridge session (the watch bar says). */
  readonly control: ControlState | undefined;
  /** Another viewer is in control: dialogs show unanswerable, the composer is disabled. */
  readonly watching: boolean;
  /** The dialogs above the composer when some belong to a tool call (the rest are the session's). */
  readonly dialogs: readonly PiDialogItem[] | undefined;
  /** A run goes on that the chat follows (Stop and Steer apply). */
  readonly live: boolean;
  /** The composer cannot send (its connection closed for good, or the chat watches). */
  readonly disabled: boolean;
}

/** The bottom area of `host`. */
export function chatBottom(host: BottomHost, view: BottomState): TemplateResult {
  const { snapshot, connection, strings: s, watching } = view;
  const bars = barsPart.module;
  return html`<div class="bottom">
    ${
      host.noToasts
        ? nothing
        : html`<pi-toasts
            exportparts="stack:toasts, toast"
            max="3"
            .client=${connection?.client}
            .session=${connection?.session}
            .strings=${host.strings}
          ></pi-toasts>`
    }
    ${
      host.noDialogs
        ? nothing
        : html`<pi-dialog
            exportparts="panel:dialog"
            ?watching=${watching}
            .client=${connection?.client}
            .session=${connection?.session}
            .dialogs=${view.dialogs}
            .strings=${host.strings}
          ></pi-dialog>`
    }
    ${widgetsView(snapshot, "aboveEditor")}
    ${bars?.queueView(snapshot?.queue, s, () => void host.restoreQueue()) ?? nothing}
    ${watching ? (bars?.watchBar(view.control, s, () => void host.takeControl()) ?? nothing) : nothing}
    <pi-composer
      exportparts="composer, input, attachments, send-button, steer-button, stop-button, attach-button, slash-menu, mention-menu, mentions, mention, attach-notice, uploads, upload, upload-name, upload-size, upload-progress, upload-status, upload-retry, upload-remove"
      .strings=${s}
      .fileSearch=${host.fileSearch}
      .uploads=${host.uploads}
      ?running=${view.live}
      ?disabled=${view.disabled}
      .reason=${watching ? s.placeholderWatching : undefined}
      @composer-submit=${(e: ComposerSubmitEvent) => void host.send(e.text, { images: e.images, mode: e.mode })}
      @composer-abort=${() => void host.abort()}
      @composer-restore=${() => void host.restoreQueue()}
    ></pi-composer>
    ${widgetsView(snapshot, "belowEditor")}
  </div>`;
}

/** The extension widgets placed above or below the editor. */
function widgetsView(
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
