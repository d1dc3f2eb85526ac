import type { PiClient, SessionModel, WorkspaceChanges } from "@pi-kit/client";
import type { ChangeSet, CheckpointSummary, FileChange } from "@pi-kit/protocol/bridge";
import { html, LitElement, nothing, type PropertyValues } from "lit";
import { PiErrorEvent } from "../../events/pi-error.ts";
import { PiRevertFileEvent } from "../../events/pi-revert-file.ts";
import { PiUndoTurnEvent } from "../../events/pi-undo-turn.ts";
import { confirmBar, focusConfirmBar } from "../../internal/confirm-bar.ts";
import {
  ConnectionController,
  refreshOnChanges,
} from "../../internal/controllers/connection-controller.ts";
import { ControlController } from "../../internal/controllers/control-controller.ts";
import { LocaleController } from "../../internal/controllers/locale-controller.ts";
import { changesStringsFor, type PiChangesStrings } from "../../internal/i18n/changes-strings.ts";
import { format } from "../../internal/i18n/format.ts";
import type { PiStrings } from "../../internal/i18n/i18n.ts";
import { confirmStyles } from "../../styles/confirm.ts";
import { diffStyles } from "../../styles/diff.ts";
import { baseStyles } from "../../styles/shared.ts";
import { tokenStyles } from "../../styles/tokens.ts";
import { diffRows, patchHunks } from "../chat/tool-views/diff-table.ts";
import {
  type ChangesStrings,
  failureReason,
  fileRow,
  type LoadedDiff,
  revertQuestion,
  runRow,
  undoQuestion,
} from "./changes-views.ts";
import { changesStyles } from "./pi-changes.styles.ts";

/** The confirmation on screen: reverting one file, or undoing one turn. */
type Question =
  | { readonly kind: "revert"; readonly change: FileChange }
  | { readonly kind: "undo"; readonly checkpoint: CheckpointSummary; readonly count: number };

const LOCK_NOTE = "lock-note";

/**
 * What pi changed in the session's workspace: the files changed since the session started
 * (added, modified, deleted or renamed, with +/− line counts; binary files marked), each with its
 * diff on demand and **Revert file**, and the session's turns, newest first, each with **Undo this
 * turn**, which restores the workspace to the checkpoint taken when that turn started. Both ask
 * first, saying what will be lost. It reads and changes any `WorkspaceChanges`, such as
 * `BridgeWorkspaceChanges` from `@pi-kit/client`; given a `client` (or inside a `<pi-provider>`),
 * it reloads when a run ends and when the session changes. A watcher (another tab controls the
 * bridge session) or a `read-only` panel shows everything but cannot revert or undo, and says why.
 * Failures are shown in the panel and fired as `pi-error`.
 *
 * Load it lazily: `import "@pi-kit/elements/changes"` registers the tag.
 *
 * @tagname pi-changes
 * @summary Changed files and undo.
 * @event pi-revert-file - Confirmed "Revert file", before the file is reverted; cancelable. {@link PiRevertFileEvent}
 * @event pi-undo-turn - Confirmed "Undo this turn", before the workspace is restored; cancelable. {@link PiUndoTurnEvent}
 * @event pi-error - A call failed (`action` is `load-changes`, `load-diff`, `revert-file` or `undo-turn`).
 * @csspart summary - How many files changed (or that none did).
 * @csspart refresh-button - Reloads the changes.
 * @csspart lock-note - Why reverting and undoing are off.
 * @csspart error - A failure, in words.
 * @csspart files - The list of changed files.
 * @csspart file - One changed file.
 * @csspart file-button - Shows or hides the file's diff.
 * @csspart status - The file's status badge (also `added`, `modified`, `deleted` or `renamed`).
 * @csspart path - The file's path.
 * @csspart counts - Lines added and removed, or `binary`.
 * @csspart revert-button - Reverts the file (after a confirmation).
 * @csspart diff-region - The file's diff.
 * @csspart diff - The diff table with its counts.
 * @csspart runs - The list of turns.
 * @csspart run - One turn.
 * @csspart run-label - The prompt that started the turn.
 * @csspart run-time - When it started.
 * @csspart undo-button - Undoes the turn (after a confirmation).
 * @csspart confirm - The confirmation.
 * @csspart note - What the last action did.
 * @cssproperty [--max-height=none] - Height before the panel scrolls.
 */
export class PiChanges extends LitElement {
  static override styles = [tokenStyles, baseStyles, confirmStyles, diffStyles, changesStyles];
  static override properties = {
    changes: { attribute: false },
    client: { attribute: false },
    session: { attribute: false },
    strings: { attribute: false },
    theme: { type: String, reflect: true },
    readOnly: { type: Boolean, attribute: "read-only" },
    changeSet: { state: true },
    checkpoints: { state: true },
    busy: { state: true },
    failure: { state: true },
    question: { state: true },
    note: { state: true },
  };

  /** Where the checkpoints and changes come from (for example `BridgeWorkspaceChanges`). */
  declare changes: WorkspaceChanges | undefined;
  /** The session's client: the panel reloads when a run ends, and knows whether this tab watches. */
  declare client: PiClient | undefined;
  /** Unused; accepted so the element fits a provider. */
  declare session: SessionModel | undefined;
  /** Overrides for the built-in strings of the resolved language (the shared table's and this element's). */
  declare strings: Partial<PiStrings & PiChangesStrings> | undefined;
  /** `light`, `dark`, or `auto` / unset to follow `prefers-color-scheme`. */
  declare theme: "light" | "dark" | "auto" | undefined;
  /** Shows the changes without Revert and Undo (also the case while this tab watches). */
  declare readOnly: boolean;
  /** The files changed since the session started, once loaded. */
  declare changeSet: ChangeSet | undefined;
  /** The session's checkpoints, oldest first, once loaded. */
  declare checkpoints: readonly CheckpointSummary[];
  declare busy: boolean;
  declare failure: string | undefined;
  declare question: Question | undefined;
  declare note: string | undefined;

  readonly #connection = new ConnectionController(this, {
    changed: refreshOnChanges(() => void this.refresh(), { initial: false }),
  });
  readonly #control = new ControlController(this);
  readonly #locale = new LocaleController(this, changesStringsFor);
  readonly #expanded = new Set<string>();
  readonly #diffOpen = new Set<string>();
  readonly #diffs = new Map<string, LoadedDiff>();
  #load: AbortController | undefined;
  /** The button that asked the question on screen: the focus goes back to it. */
  #asker: HTMLElement | undefined;
  #focusPending = false;
  /** Whether the failure on show is the last load's. */
  #loadFailed = false;

  constructor() {
    super();
    this.readOnly = false;
    this.checkpoints = [];
    this.busy = false;
  }

  /** The first render in a language whose table still loads waits for it (no flash of English). */
  protected override scheduleUpdate(): Promise<unknown> | undefined {
    return this.#locale.schedule(() => super.scheduleUpdate());
  }

  /** Whether Revert and Undo are off: `read-only`, or this tab watches a session another controls. */
  get locked(): boolean {
    return this.readOnly || this.#control.watching || this.#control.control?.you.readOnly === true;
  }

  /** Reloads the checkpoints and the changed files (and the diffs on show). */
  async refresh(): Promise<void> {
    const source = this.changes;
    this.#load?.abort();
    if (source === undefined) return;
    const load = new AbortController();
    this.#load = load;
    const { signal } = load;
    this.busy = true;
    try {
      const [checkpoints, changeSet] = await Promise.all([
        source.checkpoints({ signal }),
        source.changes(undefined, { signal }),
      ]);
      if (signal.aborted) return;
      this.checkpoints = checkpoints;
      this.changeSet = changeSet;
      // A reload answers a failed load, not a failed revert or undo: that stays said.
      if (this.#loadFailed) this.failure = undefined;
      this.#loadFailed = false;
      this.#diffs.clear();
      const paths = new Set(changeSet.changes.map((change) => change.path));
      for (const path of this.#expanded) if (!paths.has(path)) this.#expanded.delete(path);
      for (const change of changeSet.changes)
        if (this.#expanded.has(change.path)) void this.#loadDiff(change);
    } catch (error) {
      if (signal.aborted) return;
      this.#loadFailed = true;
      this.failure = format(this.#locale.strings.changesLoadFailed, {
        message: failureReason(error, this.#locale.strings),
      });
      this.dispatchEvent(new PiErrorEvent("load-changes", error));
    } finally {
      if (this.#load === load) {
        this.#load = undefined;
        this.busy = false;
      }
    }
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#load?.abort();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    this.#connection.resolve();
    this.#control.watch(this.#connection.client);
    if (changed.has("changes")) {
      this.changeSet = undefined;
      this.checkpoints = [];
      this.question = undefined;
      this.#expanded.clear();
      void this.refresh();
    }
  }

  protected override updated(): void {
    if (!this.#focusPending) return;
    this.#focusPending = false;
    if (this.question !== undefined) focusConfirmBar(this.renderRoot);
    else if (this.#asker?.isConnected) this.#asker.focus();
  }

  protected override render(): unknown {
    const s = this.#locale.strings;
    const set = this.changeSet;
    const count = set?.changes.length ?? 0;
    const summary =
      set === undefined
        ? this.changes === undefined
          ? s.changesNoSource
          : this.failure === undefined
            ? s.loading
            : ""
        : count === 0
          ? s.changesEmpty
          : count === 1
            ? s.changesSummaryOne
            : format(s.changesSummary, { count });
    const locked = this.locked;
    const lockText = this.readOnly ? s.changesReadOnly : s.changesWatching;
    return html`<div class="header">
        <p part="summary" class="summary" role="status" aria-busy=${this.busy ? "true" : "false"}>${summary}</p>
        <button
          part="refresh-button"
          class="refresh"
          ?disabled=${this.changes === undefined || this.busy}
          @click=${() => void this.refresh()}
        >${s.refresh}</button>
      </div>
      ${locked && set !== undefined ? html`<p part="lock-note" id=${LOCK_NOTE} class="muted lock-note">${lockText}</p>` : nothing}
      ${this.failure === undefined ? nothing : html`<p part="error" class="error" role="alert">${this.failure}</p>`}
      ${count === 0 ? nothing : this.#files(s, set?.changes ?? [], locked)}
      ${
        (set?.skipped.length ?? 0) === 0
          ? nothing
          : html`<p class="muted skipped">${format(s.changesSkipped, { paths: set?.skipped.join(", ") ?? "" })}</p>`
      }
      ${this.#runs(s, locked)}
      <p part="note" class="note" role="status">${this.note ?? ""}</p>`;
  }

  #files(s: ChangesStrings, changes: readonly FileChange[], locked: boolean): unknown {
    const lockNote = locked ? LOCK_NOTE : undefined;
    return html`<ul part="files" class="files" aria-label=${s.changesFilesLabel}>
      ${changes.map((change, index) =>
        fileRow(
          {
            change,
            index,
            expanded: this.#expanded.has(change.path),
            diff: this.#diffs.get(change.path),
            diffOpen: this.#diffOpen.has(change.path),
            locked: locked || this.busy,
            lockNote,
            question: this.#questionFor("revert", change.path, s),
            toggle: () => this.#toggle(change),
            toggleAll: () => {
              if (!this.#diffOpen.delete(change.path)) this.#diffOpen.add(change.path);
              this.requestUpdate();
            },
            revert: (button) => this.#ask({ kind: "revert", change }, button),
          },
          s,
        ),
      )}
    </ul>`;
  }

  #runs(s: ChangesStrings, locked: boolean): unknown {
    // The first checkpoint is the session start; each later one is the start of a turn.
    const runs = this.checkpoints.slice(1).reverse();
    if (runs.length === 0) return nothing;
    const now = Date.now();
    const lang = this.#locale.lang;
    // A label, not a heading: the element cannot know the heading levels of the page around it.
    return html`<p class="runs-title" aria-hidden="true">${s.changesRuns}</p>
      <ol part="runs" class="runs" aria-label=${s.changesRunsLabel}>
        ${runs.map((checkpoint) =>
          runRow(
            {
              checkpoint,
              lang,
              now,
              locked: locked || this.busy,
              lockNote: locked ? LOCK_NOTE : undefined,
              question: this.#questionFor("undo", checkpoint.id, s),
              undo: (button) => void this.#askUndo(checkpoint, button),
            },
            s,
          ),
        )}
      </ol>`;
  }

  #toggle(change: FileChange): void {
    if (this.#expanded.delete(change.path)) {
      this.requestUpdate();
      return;
    }
    this.#expanded.add(change.path);
    if (!this.#diffs.has(change.path)) void this.#loadDiff(change);
    this.requestUpdate();
  }

  async #loadDiff(change: FileChange): Promise<void> {
    const source = this.changes;
    if (source === undefined) return;
    if (change.binary || change.tooLarge === true) {
      this.#diffs.set(change.path, { state: change.tooLarge === true ? "tooLarge" : "binary" });
      this.requestUpdate();
      return;
    }
    this.#diffs.set(change.path, { state: "loading" });
    this.requestUpdate();
    let loaded: LoadedDiff;
    try {
      const { diff } = await source.diff(change.path);
      loaded = { state: "rows", rows: diff === "" ? [] : diffRows(patchHunks(diff)) };
    } catch (error) {
      loaded = { state: "failed", message: failureReason(error, this.#locale.strings) };
      this.dispatchEvent(new PiErrorEvent("load-diff", error));
    }
    // A reload while it loaded asks again for what is current.
    if (this.changes !== source || this.#diffs.get(change.path)?.state !== "loading") return;
    this.#diffs.set(change.path, loaded);
    this.requestUpdate();
  }

  #ask(question: Question, button: HTMLElement): void {
    if (this.locked) return;
    this.note = undefined;
    this.question = question;
    this.#asker = button;
    this.#focusPending = true;
  }

  /** Counts what undoing the turn would put back, then asks (or says there is nothing to undo). */
  async #askUndo(checkpoint: CheckpointSummary, button: HTMLElement): Promise<void> {
    const source = this.changes;
    if (source === undefined || this.locked) return;
    this.busy = true;
    try {
      const since = await source.changes(checkpoint.id);
      if (since.changes.length === 0)
        this.note = format(this.#locale.strings.changesUndoNothing, { label: checkpoint.label });
      else this.#ask({ kind: "undo", checkpoint, count: since.changes.length }, button);
    } catch (error) {
      this.#loadFailed = true;
      this.failure = format(this.#locale.strings.changesLoadFailed, {
        message: failureReason(error, this.#locale.strings),
      });
      this.dispatchEvent(new PiErrorEvent("load-changes", error));
    } finally {
      this.busy = false;
    }
  }

  #questionFor(kind: Question["kind"], key: string, s: ChangesStrings): unknown {
    const question = this.question;
    if (question === undefined || question.kind !== kind) return nothing;
    if (question.kind === "revert" && question.change.path !== key) return nothing;
    if (question.kind === "undo" && question.checkpoint.id !== key) return nothing;
    const text =
      question.kind === "revert"
        ? revertQuestion(question.change, s)
        : undoQuestion(question.checkpoint.label, question.count, s);
    return confirmBar({
      text,
      confirm: question.kind === "revert" ? s.changesRevertFile : s.changesUndoTurn,
      cancel: s.dialogCancel,
      destructive: true,
      onConfirm: () => {
        this.question = undefined;
        this.#focusPending = true;
        void this.#carryOut(question);
      },
      onCancel: () => {
        this.question = undefined;
        this.#focusPending = true;
      },
    });
  }

  async #carryOut(question: Question): Promise<void> {
    const source = this.changes;
    if (source === undefined || this.locked) return;
    const s = this.#locale.strings;
    const event =
      question.kind === "revert"
        ? new PiRevertFileEvent(question.change)
        : new PiUndoTurnEvent(question.checkpoint);
    if (!this.dispatchEvent(event)) return;
    this.busy = true;
    try {
      if (question.kind === "revert") {
        await source.revertFile(question.change.path);
        this.note = format(s.changesReverted, { path: question.change.path });
      } else {
        await source.restore(question.checkpoint.id);
        this.note = format(s.changesUndone, { label: question.checkpoint.label });
      }
      this.failure = undefined;
      this.#loadFailed = false;
    } catch (error) {
      this.#loadFailed = false;
      this.failure =
        question.kind === "revert"
          ? format(s.changesRevertFailed, {
              path: question.change.path,
              message: failureReason(error, s),
            })
          : format(s.changesUndoFailed, { message: failureReason(error, s) });
      this.dispatchEvent(
        new PiErrorEvent(question.kind === "revert" ? "revert-file" : "undo-turn", error),
      );
    } finally {
      this.busy = false;
    }
    await this.refresh();
  }
}

declare global {
  interface HTMLElementTagNameMap {
    "pi-changes": PiChanges;
  }
}
