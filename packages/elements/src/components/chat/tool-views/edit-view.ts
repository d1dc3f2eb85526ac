/**
 * The `edit` tool as a unified diff with line numbers: pi's own patch (`details.patch`, pi 0.75.5
 * and later), else one computed from the call's replacements with jsdiff (this module loads
 * lazily, and jsdiff with it), numbered from `details.firstChangedLine` when pi gave it.
 */
import { type StructuredPatchHunk, structuredPatch } from "diff";
import { html, nothing } from "lit";
import { diffStyles } from "../../../styles/diff.ts";
import { diffRows, diffTable, patchHunks } from "./diff-table.ts";
import { errorTextStyles } from "./error-text.styles.ts";
import { detail, outputText, stringArg, type ToolView, type ToolViewContext } from "./view.ts";

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
      return patchHunks(patch);
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

/** The styles the edit view needs beyond the card's: the diff's, and a failed edit's output. */
export const editStyles = [diffStyles, errorTextStyles];

export const editView: ToolView = (c) => {
  const rows = diffRows(hunks(c));
  if (rows.length === 0) return undefined;
  const error = c.status === "error" || c.status === "aborted" ? outputText(c) : undefined;
  return diffTable(rows, c, {
    label: stringArg(c, "path", "file_path") ?? c.call.name,
    after: error ? html`<pre part="tool-output" class="output error-text">${error}</pre>` : nothing,
  });
};
