/**
 * A unified diff as a table with old and new line numbers: the edit tool's card shows its patch
 * this way, and `<pi-changes>` shows a file's changes since a checkpoint with it. Styled by
 * `styles/diff.ts`.
 */
import { parsePatch, type StructuredPatchHunk } from "diff";
import { html, nothing, type TemplateResult } from "lit";
import { type ClipState, clipRows } from "./clip.ts";

/** One line of a diff as shown: added, removed, context, or the gap between two hunks. */
export interface DiffRow {
  readonly kind: "add" | "del" | "ctx" | "gap";
  readonly old?: number;
  readonly new?: number;
  readonly text: string;
}

/** The hunks of the first file of a unified diff (`git diff`'s or pi's); throws when jsdiff cannot read it. */
export function patchHunks(patch: string): StructuredPatchHunk[] {
  return parsePatch(patch)[0]?.hunks ?? [];
}

/** The rows of a list of hunks, numbered as the hunks say. */
export function diffRows(list: readonly StructuredPatchHunk[]): DiffRow[] {
  const rows: DiffRow[] = [];
  for (const [index, hunk] of list.entries()) {
    if (index > 0) rows.push({ kind: "gap", text: "⋯" });
    let oldLine = hunk.oldStart;
    let newLine = hunk.newStart;
    for (const line of hunk.lines) {
      const text = line.slice(1);
      if (line.startsWith("+")) rows.push({ kind: "add", new: newLine++, text });
      else if (line.startsWith("-")) rows.push({ kind: "del", old: oldLine++, text });
      else if (line.startsWith(" "))
        rows.push({ kind: "ctx", old: oldLine++, new: newLine++, text });
    }
  }
  return rows;
}

const SIGN = { add: "+", del: "−", ctx: " ", gap: " " } as const;

/** What a diff's section shows besides its rows. */
export interface DiffTableOptions {
  /** Names the table for assistive technology (the file's path). */
  readonly label: string;
  /** Shows the +/− counts above the rows (off where the page already shows them). */
  readonly counts?: boolean;
  /** Below the rows. */
  readonly after?: unknown;
}

/** The diff's section: its +/− counts, the rows (clipped until "show all"), and what comes after. */
export function diffTable(
  rows: readonly DiffRow[],
  clip: ClipState,
  { label, counts = true, after = nothing }: DiffTableOptions,
): TemplateResult {
  const added = rows.filter((r) => r.kind === "add").length;
  const removed = rows.filter((r) => r.kind === "del").length;
  const { shown, toggle } = clipRows(rows, clip);
  // The rows scroll past 30em: a keyboard user must be able to reach and scroll them.
  return html`<div class="section diff" part="diff">
    ${counts ? html`<div class="label"><span class="added">+${added}</span> <span class="removed">−${removed}</span></div>` : nothing}
    <div class="rows" role="table" aria-label=${label} tabindex="0">${shown.map(
      (r) =>
        html`<div class="row ${r.kind}" role="row"><span class="num" role="cell">${r.old ?? ""}</span><span class="num" role="cell">${r.new ?? ""}</span><span class="sign" role="cell" aria-hidden="true">${SIGN[r.kind]}</span><span class="text" role="cell">${r.text}</span></div>`,
    )}</div>
    ${toggle}
    ${after}
  </div>`;
}
