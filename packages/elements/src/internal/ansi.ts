/**
 * Terminal output with ANSI colours, as Lit templates: ansi-sequence-parser turns the escape
 * sequences into tokens (never HTML), and each token becomes text in a span whose style comes
 * only from this module's own mapping. The 16 named colours follow the theme's tokens, so output
 * stays readable in light and dark; 256-colour and RGB values are used as given.
 */
import {
  type Color,
  createColorPalette,
  type ParseToken,
  parseAnsiSequences,
} from "ansi-sequence-parser";
import { html, type TemplateResult } from "lit";

const NAMED: Record<string, string> = {
  black: "var(--_color-fg)",
  red: "var(--_color-danger)",
  green: "var(--_color-success)",
  yellow: "var(--_color-warning)",
  blue: "var(--_syntax-type)",
  magenta: "var(--_syntax-function)",
  cyan: "var(--_syntax-string)",
  white: "var(--_color-muted)",
};

const palette = createColorPalette();

function colour(color: Color): string {
  if (color.type === "named")
    return NAMED[color.name.replace(/^bright/, "").toLowerCase()] ?? "inherit";
  return palette.value(color);
}

function styleOf(token: ParseToken): string {
  const rules: string[] = [];
  if (token.foreground) rules.push(`color:${colour(token.foreground)}`);
  if (token.background) rules.push(`background:${colour(token.background)}`);
  const d = token.decorations;
  if (d.has("bold")) rules.push("font-weight:bold");
  if (d.has("dim")) rules.push("opacity:.7");
  if (d.has("italic")) rules.push("font-style:italic");
  if (d.has("underline") || d.has("strikethrough"))
    rules.push(
      `text-decoration:${d.has("underline") ? "underline" : ""} ${d.has("strikethrough") ? "line-through" : ""}`,
    );
  if (d.has("hidden")) rules.push("visibility:hidden");
  return rules.join(";");
}

/** True when `text` holds an escape sequence. */
export function hasAnsi(text: string): boolean {
  return text.includes("\u001b[");
}

/** One line of terminal output as text and styled spans. */
export function ansiLine(line: string): (TemplateResult | string)[] {
  if (!hasAnsi(line)) return [line];
  return parseAnsiSequences(line).map((token) => {
    const style = styleOf(token);
    return style ? html`<span style=${style}>${token.value}</span>` : token.value;
  });
}

/** Removes escape sequences (for copying and measuring). */
export function stripAnsi(text: string): string {
  return hasAnsi(text)
    ? parseAnsiSequences(text)
        .map((t) => t.value)
        .join("")
    : text;
}
