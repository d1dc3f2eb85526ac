import { css, unsafeCSS } from "lit";

/**
 * The documented design tokens: every `--pi-*` custom property a page may set, with its light and
 * dark default. Components read the private `--_*` copies, so an unset token falls back to the
 * palette of the active scheme while a set token wins in both.
 */
export const TOKENS = {
  "color-bg": ["#ffffff", "#16181d"],
  "color-fg": ["#1b1d22", "#e6e8ee"],
  "color-muted": ["#565c69", "#a3a9b7"],
  "color-border": ["#d5d9e0", "#363a45"],
  "color-surface": ["#f4f5f7", "#1f2229"],
  "color-user": ["#eaf0ff", "#232a3f"],
  "color-accent": ["#2f4cc9", "#93a8ff"],
  "color-accent-fg": ["#ffffff", "#0f1530"],
  "color-danger": ["#b42318", "#ff9a90"],
  "color-warning": ["#7a5200", "#f0c060"],
  "color-success": ["#17704a", "#74d6a0"],
  "color-code-bg": ["#f4f5f7", "#1c1f26"],
  "syntax-keyword": ["#c0144f", "#ff7aa8"],
  "syntax-string": ["#1d6b38", "#8fdca4"],
  "syntax-number": ["#a64b00", "#ffb070"],
  "syntax-comment": ["#5f6672", "#9aa1ad"],
  "syntax-function": ["#6a3dc2", "#c3a6ff"],
  "syntax-type": ["#0a5fa8", "#7cc4ff"],
} as const satisfies Record<string, readonly [light: string, dark: string]>;

/** Scheme-independent tokens (fonts, sizes, radii). */
export const FIXED_TOKENS = {
  "font-family":
    "system-ui, -apple-system, 'Segoe UI', Roboto, 'Noto Sans', 'PingFang SC', sans-serif",
  "font-mono": "ui-monospace, SFMono-Regular, Menlo, Consolas, 'Liberation Mono', monospace",
  "font-size": "0.9375rem",
  "line-height": "1.55",
  radius: "0.5rem",
  space: "0.75rem",
  "focus-ring": "2px solid var(--_color-accent)",
} as const;

function scheme(index: 0 | 1): string {
  return Object.entries(TOKENS)
    .map(([name, values]) => `--_scheme-${name}: ${values[index]};`)
    .join("\n");
}

// Each element resolves a token as: the page's --pi-* value, else the scheme an ancestor pi
// element (or its own theme attribute) chose, else light. Scheme values inherit into nested
// elements, so a dark <pi-chat> gives dark messages without each one needing the attribute.
const resolved = [
  ...Object.entries(TOKENS).map(
    ([name, values]) => `--_${name}: var(--pi-${name}, var(--_scheme-${name}, ${values[0]}));`,
  ),
  ...Object.entries(FIXED_TOKENS).map(
    ([name, value]) => `--_${name}: var(--pi-${name}, ${value});`,
  ),
].join("\n");

/**
 * Token styles for elements nested inside another pi element: they inherit its scheme and only
 * switch on their own `theme` attribute.
 */
export const nestedTokenStyles = css`
  :host {
    ${unsafeCSS(resolved)}
  }
  :host([theme="dark"]) {
    ${unsafeCSS(scheme(1))}
  }
  :host([theme="light"]) {
    ${unsafeCSS(scheme(0))}
  }
`;

/**
 * Token styles for top-level elements (`<pi-chat>`, `<pi-dialog>`…): the nested rules plus
 * following `prefers-color-scheme` when `theme` is unset or `auto`. `theme="dark"` or
 * `theme="light"` forces a scheme.
 */
export const tokenStyles = css`
  ${nestedTokenStyles}
  :host {
    color-scheme: light;
  }
  @media (prefers-color-scheme: dark) {
    :host(:not([theme="light"])) {
      ${unsafeCSS(scheme(1))}
      color-scheme: dark;
    }
  }
  :host([theme="dark"]) {
    color-scheme: dark;
  }
`;
