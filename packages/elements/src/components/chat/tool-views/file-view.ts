/**
 * Files: `write` shows the content written, `read` a collapsible view of what was read, both
 * with line numbers and highlighted by the file's extension (the card highlights `code[data-lang]`).
 */
import { html, nothing, type TemplateResult } from "lit";
import { keyed } from "lit/directives/keyed.js";
import { format } from "../../../internal/i18n/format.ts";
import { clipRows } from "./clip.ts";
import { languageOf, outputText, stringArg, type ToolView } from "./view.ts";

// pi ends a partial read with a note on how to go on: shown apart from the file's lines.
const READ_NOTE = /\n\n(\[(?:Showing lines|\d+ more lines? in file)[^\]\n]*\])\s*$/;

function fileLines(
  lines: readonly string[],
  first: number,
  path: string | undefined,
): TemplateResult {
  const text = lines.join("\n");
  const numbers = lines.map((_, i) => first + i).join("\n");
  return html`<div class="file" part="file"><pre class="gutter" aria-hidden="true">${numbers}</pre>${keyed(
    text,
    html`<pre class="code"><code data-lang=${languageOf(path)} .textContent=${text}></code></pre>`,
  )}</div>`;
}

export const writeView: ToolView = (c) => {
  const content = stringArg(c, "content");
  if (content === undefined) return undefined;
  const path = stringArg(c, "path", "file_path");
  const { shown, toggle } = clipRows(content.replace(/\n$/, "").split("\n"), c);
  const error = c.status === "error" || c.status === "aborted" ? outputText(c) : undefined;
  return html`<div class="section">${fileLines(shown, 1, path)}${toggle}${
    error ? html`<pre part="tool-output" class="output error-text">${error}</pre>` : nothing
  }</div>`;
};

export const readView: ToolView = (c) => {
  const text = outputText(c);
  if (text === undefined || c.status === "running" || c.status === "pending") return undefined;
  if (c.status === "error" || c.status === "aborted")
    return html`<div class="section"><pre part="tool-output" class="output error-text">${text}</pre></div>`;
  const path = stringArg(c, "path", "file_path");
  const note = READ_NOTE.exec(text);
  const lines = (note ? text.slice(0, note.index) : text).split("\n");
  const offset = c.call.arguments.offset;
  const first = typeof offset === "number" && offset > 0 ? Math.floor(offset) : 1;
  return html`<details class="section read" part="file-view">
    <summary>${format(c.strings.fileLines, { from: first, to: first + lines.length - 1 })}</summary>
    ${fileLines(lines, first, path)}
    ${note ? html`<div class="note">${note[1]}</div>` : nothing}
  </details>`;
};
