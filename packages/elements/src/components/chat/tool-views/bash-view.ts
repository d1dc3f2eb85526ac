/** The `bash` tool: the command, its output with ANSI colours (tail first), and its exit code. */
import { css, html, nothing } from "lit";
import { ansiLine } from "../../../internal/ansi.ts";
import { format } from "../../../internal/i18n/format.ts";
import { clipRows } from "./clip.ts";
import { outputText, stringArg, type ToolView } from "./view.ts";

// pi appends this line to the output of a command that failed.
const EXIT_LINE = /(?:^|\n+)Command exited with code (\d+)\s*$/;

function structuredExitCode(result: unknown): number | undefined {
  if (result === null || typeof result !== "object" || !("structuredContent" in result))
    return undefined;
  const content = result.structuredContent as { exit_code?: unknown } | undefined;
  return typeof content?.exit_code === "number" ? content.exit_code : undefined;
}

/** The styles of the command and its exit code, beyond the card's. */
export const bashStyles = [
  css`
    .command,
    .exit {
      color: var(--_color-muted);
      font-size: 0.85em;
    }
    .exit.failed {
      color: var(--_color-danger);
    }
  `,
];

export const bashView: ToolView = (c) => {
  const command = stringArg(c, "command");
  if (command === undefined) return undefined;
  let text = outputText(c) ?? "";
  const line = EXIT_LINE.exec(text);
  if (line) text = text.slice(0, line.index);
  text = text.replace(/\n+$/, "");
  let code = structuredExitCode(c.execution?.result) ?? (line ? Number(line[1]) : undefined);
  if (code === undefined && c.status === "done") code = 0;
  const { shown, toggle } = clipRows(text === "" ? [] : text.split("\n"), c, true);
  return html`<div class="section terminal">
    <pre class="command">$ ${command}</pre>
    ${shown.length ? html`<pre part="tool-output" class="output">${shown.map((l, i) => html`${i ? "\n" : ""}${ansiLine(l)}`)}</pre>` : nothing}
    ${toggle}
    ${code === undefined ? nothing : html`<div class=${code === 0 ? "exit" : "exit failed"}>${format(c.strings.exitCode, { code })}</div>`}
  </div>`;
};
