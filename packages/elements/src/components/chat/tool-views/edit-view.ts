/**
 * The `edit` tool as a unified diff with line numbers: pi's own patch (`details.patch`, pi 0.75.5
 * and later), else one computed from the call's replacements with jsdiff (this module loads
 * lazily, and jsdiff with it), numbered from `details.firstChangedLine` when pi gave it.
 */
import { parsePatch, type StructuredPatchHunk, structuredPatch } from "diff";
import { html, nothing } from "lit";
import { clipRows } from "./clip.ts";
import { detail, outputText, stringArg, type ToolView, type ToolViewContext } from "./view.ts";

interface Row {
  readonly kind: "add" | "del" | "ctx" | "gap";
  readonly old?: number;
  readonly new?: number;
  readonly text: string;
}

interface Replacement {
  readonly oldText: string;
  readonly newText: string;
}

/** The call's replacements: `edits: [{ oldText, newText }]`, or the older single pair. */
function replacements(c: ToolViewContext): Replacement[] {
  const args = c.call.arguments as { edits?: unknown; oldText?: unknown; newText?: unknown };
  const list = Array.isArray(args.edits) ? [...args.edits] : [];
  if (typeof args.oldText === "string") list.push({ oldText: args.oldText, newText: args.newText });
  return list.filter(
    (e): e is Replacement =>
      typeof e?.oldText === "string" && typeof (e as Replacement).newText === "string",
  );
}

function hunks(c: ToolViewContext): StructuredPatchHunk[] {
  const patch = detail(c, "patch");
  if (typeof patch === "string" && patch.includes("@@")) {
    try {
      return parsePatch(patch)[0]?.hunks ?? [];
    } catch {
      // A patch jsdiff cannot read: fall back to the call's replacements.
    }
  }
  const path = stringArg(c, "path", "file_path") ?? "";
  const computed = replacements(c).flatMap(
    (r) => structuredPatch(path, path, r.oldText, r.newText, "", "", { context: 3 }).hunks,
  );
  // pi 0.73 reports where the first change is in the new file: number the lines from there.
  const first = detail(c, "firstChangedLine");
  if (typeof first === "number" && computed.length === 1 && computed[0]) {
    const hunk = computed[0];
    const leading = hunk.lines.findIndex((l) => !l.startsWith(" "));
    const shift = first - (hunk.newStart + Math.max(0, leading));
    return [{ ...hunk, oldStart: hunk.oldStart + shift, newStart: hunk.newStart + shift }];
  }
  return computed;
}

function rowsOf(list: readonly StructuredPatchHunk[]): Row[] {
  const rows: Row[] = [];
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

export const editView: ToolView = (c) => {
  const rows = rowsOf(hunks(c));
  if (rows.length === 0) return undefined;
  const added = rows.filter((r) => r.kind === "add").length;
  const removed = rows.filter((r) => r.kind === "del").length;
  const { shown, toggle } = clipRows(rows, c);
  const error = c.status === "error" || c.status === "aborted" ? outputText(c) : undefined;
  return html`<div class="section diff" part="diff">
    <div class="label"><span class="added">+${added}</span> <span class="removed">−${removed}</span></div>
    <div class="rows" role="table" aria-label=${stringArg(c, "path", "file_path") ?? c.call.name}>${shown.map(
      (r) =>
        html`<div class="row ${r.kind}" role="row"><span class="num" role="cell">${r.old ?? ""}</span><span class="num" role="cell">${r.new ?? ""}</span><span class="sign" role="cell" aria-hidden="true">${SIGN[r.kind]}</span><span class="text" role="cell">${r.text}</span></div>`,
    )}</div>
    ${toggle}
    ${error ? html`<pre part="tool-output" class="output error-text">${error}</pre>` : nothing}
  </div>`;
};
