/**
 * Files: `write` shows the content written, `read` a collapsible view of what was read, both
 * with line numbers and highlighted by the file's extension (the card highlights `code[data-lang]`).
 */
import { css, html, nothing, type TemplateResult } from "lit";
import { keyed } from "lit/directives/keyed.js";
import { format } from "../../../internal/i18n/format.ts";
import { clipRows } from "./clip.ts";
import { errorTextStyles } from "./error-text.styles.ts";
import { languageOf, outputText, stringArg, type ToolView } from "./view.ts";

/** The styles of a file's lines and of a read's collapsible view, beyond the card's. */
export const fileStyles = [
  errorTextStyles,
  css`
    .read > summary,
    .note {
      color: var(--_color-muted);
      font-size: 0.85em;
    }
    .file {
      display: flex;
      font-family: var(--_font-mono);
      font-size: 0.85em;
      overflow: auto;
      max-height: 30em;
      line-height: 1.45;
    }
    .gutter {
      color: var(--_color-muted);
      text-align: right;
      padding-right: 0.6em;
      min-width: 2.5em;
      user-select: none;
    }
    .file pre {
      overflow: visible;
      max-height: none;
    }
    .file pre,
    .file code {
      font-size: inherit;
    }
    .file .code {
      white-space: pre;
      flex: 1;
    }
    details.read {
      border: 0;
      border-top: 1px solid var(--_color-border);
      border-radius: 0;
      background: none;
      margin: 0;
    }
    .read > summary {
      display: list-item;
      cursor: pointer;
      padding: 0;
    }
    .read[open] > summary {
      margin-bottom: 0.3em;
    }
  `,
];

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
