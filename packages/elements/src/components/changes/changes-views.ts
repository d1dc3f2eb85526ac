/**
 * What `<pi-changes>` renders for one changed file and one turn: pure templates over the state the
 * element keeps, so the element holds only the state and the calls.
 */
import { SessionHistoryError } from "@pi-kit/client";
import type { CheckpointSummary, FileChange, FileChangeStatus } from "@pi-kit/protocol/bridge";
import { html, nothing, type TemplateResult } from "lit";
import type { PiChangesStrings } from "../../internal/i18n/changes-strings.ts";
import { format } from "../../internal/i18n/format.ts";
import type { PiStrings } from "../../internal/i18n/i18n.ts";
import { fullDate, relativeTime } from "../../internal/i18n/relative-time.ts";
import { type DiffRow, diffTable } from "../chat/tool-views/diff-table.ts";

/** The shared table and the changes table of the element's language, together. */
export type ChangesStrings = PiStrings & PiChangesStrings;

/** A file's diff as far as it is loaded. */
export type LoadedDiff =
  | { readonly state: "loading" }
  | { readonly state: "rows"; readonly rows: readonly DiffRow[] }
  | { readonly state: "binary" }
  | { readonly state: "tooLarge" }
  | { readonly state: "failed"; readonly message: string };

/** Why a call failed, in words: the bridge's reason when it gave a known one, else the error's message. */
export function failureReason(error: unknown, s: ChangesStrings): string {
  if (error instanceof SessionHistoryError) {
    if (error.hostCode === "run_in_progress") return s.changesRunInProgress;
    if (error.hostCode === "not_controller") return s.changesNotController;
    if (error.hostCode === "checkpoints_off") return s.changesOff;
  }
  return error instanceof Error ? error.message : String(error);
}

/** The words for a status. */
export function statusLabel(status: FileChangeStatus, s: ChangesStrings): string {
  return {
    added: s.changesAdded,
    modified: s.changesModified,
    deleted: s.changesDeleted,
    renamed: s.changesRenamed,
  }[status];
}

/** What reverting a file will do to it, for the confirmation. */
export function revertQuestion(change: FileChange, s: ChangesStrings): string {
  const template = {
    added: s.changesRevertAdded,
    modified: s.changesRevertModified,
    deleted: s.changesRevertDeleted,
    renamed: s.changesRevertRenamed,
  }[change.status];
  return format(template, { path: change.path, oldPath: change.oldPath ?? "" });
}

/** What undoing a turn will do, for the confirmation. */
export function undoQuestion(label: string, count: number, s: ChangesStrings): string {
  return format(count === 1 ? s.changesUndoConfirmOne : s.changesUndoConfirm, { label, count });
}

/** What one file row shows and does. */
export interface FileRowView {
  readonly change: FileChange;
  readonly index: number;
  readonly expanded: boolean;
  readonly diff: LoadedDiff | undefined;
  /** Whether the diff shows all its rows (else the first few and "show all"). */
  readonly diffOpen: boolean;
  /** Revert is off (a watcher, read-only, or a call under way). */
  readonly locked: boolean;
  /** The id of the sentence that says why the controls are off, when they are. */
  readonly lockNote: string | undefined;
  /** The confirmation under the row, while it asks. */
  readonly question: unknown;
  readonly toggle: () => void;
  readonly toggleAll: () => void;
  readonly revert: (button: HTMLElement) => void;
}

/** One changed file: its status, path and counts (a button that shows its diff), and "Revert file". */
export function fileRow(view: FileRowView, s: ChangesStrings): TemplateResult {
  const { change, index } = view;
  const counts = change.tooLarge
    ? html`<span class="binary">${format(s.changesTooLarge, { size: mebibytes(change.size ?? 0) })}</span>`
    : change.binary
      ? html`<span class="binary">${s.changesBinary}</span>`
      : html`<span class="added">+${change.additions}</span> <span class="removed">−${change.deletions}</span>`;
  return html`<li part="file" class="file" data-path=${change.path}>
    <div class="file-row">
      <button
        part="file-button"
        class="file-button"
        aria-expanded=${view.expanded ? "true" : "false"}
        aria-controls="diff-${index}"
        title=${format(s.changesShowDiff, { path: change.path })}
        @click=${view.toggle}
      >
        <span class="chevron" aria-hidden="true">${view.expanded ? "▾" : "▸"}</span>
        <span part="status ${change.status}" class="badge ${change.status}">${statusLabel(change.status, s)}</span>
        <span part="path" class="path">${change.path}${
          change.oldPath === undefined
            ? nothing
            : html` <span class="from">${format(s.changesRenamedFrom, { path: change.oldPath })}</span>`
        }</span>
        <span part="counts" class="counts">${counts}</span>
      </button>
      ${
        change.tooLarge === true && change.status !== "added"
          ? nothing
          : html`<button
        part="revert-button"
        class="revert"
        ?disabled=${view.locked}
        aria-label=${format(s.changesRevertFileLabel, { path: change.path })}
        aria-describedby=${view.lockNote ?? nothing}
        @click=${(event: Event) => view.revert(event.currentTarget as HTMLElement)}
      >${s.changesRevertFile}</button>`
      }
    </div>
    ${view.question}
    ${view.expanded ? diffRegion(view, s) : nothing}
  </li>`;
}

function diffRegion(view: FileRowView, s: ChangesStrings): TemplateResult {
  const diff = view.diff;
  const body =
    diff === undefined || diff.state === "loading"
      ? html`<p class="muted" role="status">${s.loading}</p>`
      : diff.state === "binary"
        ? html`<p class="muted">${s.changesNoTextDiff}</p>`
        : diff.state === "tooLarge"
          ? html`<p class="muted">${s.changesTooLargeNoDiff}</p>`
          : diff.state === "failed"
            ? html`<p part="error" class="error" role="alert">${format(s.changesDiffFailed, { message: diff.message })}</p>`
            : diffTable(
                diff.rows,
                { expanded: view.diffOpen, toggle: view.toggleAll, strings: s },
                // The row above already shows the counts.
                { label: view.change.path, counts: false },
              );
  return html`<div
    id="diff-${view.index}"
    part="diff-region"
    class="diff-region"
    role="region"
    aria-label=${view.change.path}
  >${body}</div>`;
}

/** What one turn's row shows and does. */
export interface RunRowView {
  readonly checkpoint: CheckpointSummary;
  readonly lang: string;
  readonly now: number;
  readonly locked: boolean;
  readonly lockNote: string | undefined;
  readonly question: unknown;
  readonly undo: (button: HTMLElement) => void;
}

/** One turn: the prompt that started it, when, and "Undo this turn". */
export function runRow(view: RunRowView, s: ChangesStrings): TemplateResult {
  const { checkpoint } = view;
  const when = relativeTime(checkpoint.createdAt, view.now, view.lang, s.justNow) ?? "";
  return html`<li part="run" class="run" data-id=${checkpoint.id}>
    <div class="run-row">
      <span class="run-text">
        <span part="run-label" class="run-label">${checkpoint.label}</span>
        <time
          part="run-time"
          class="muted"
          datetime=${new Date(checkpoint.createdAt).toISOString()}
          title=${fullDate(checkpoint.createdAt, view.lang)}
        >${when}</time>
      </span>
      <button
        part="undo-button"
        class="undo"
        ?disabled=${view.locked}
        aria-label=${format(s.changesUndoTurnLabel, { label: checkpoint.label })}
        aria-describedby=${view.lockNote ?? nothing}
        @click=${(event: Event) => view.undo(event.currentTarget as HTMLElement)}
      >${s.changesUndoTurn}</button>
    </div>
    ${view.question}
  </li>`;
}

/** `bytes` in MiB with one decimal (a file over the size cap is MiBs large). */
function mebibytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
