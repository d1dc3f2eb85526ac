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

function scheme(prefix: "scheme" | "os", index: 0 | 1): string {
  return [
    ...Object.entries(TOKENS).map(([name, values]) => `--_${prefix}-${name}: ${values[index]};`),
    `--_${prefix}-color-scheme: ${index ? "dark" : "light"};`,
  ].join("\n");
}

const ALL = [...Object.keys(TOKENS), "color-scheme"];

// A token resolves as: the page's --pi-* value, else the scheme a `theme` attribute chose (on this
// element or, inherited, on an enclosing pi element), else this element's reading of
// `prefers-color-scheme`. Only explicit themes are stored in inherited --_scheme-* properties, so a
// nested element inside `<pi-chat theme="light">` stays light on a dark OS, while elements with no
// theme anywhere above them each follow the OS (and so agree with each other).
const resolved = [
  ...Object.entries(TOKENS).map(
    ([name, values]) =>
      `--_${name}: var(--pi-${name}, var(--_scheme-${name}, var(--_os-${name}, ${values[0]})));`,
  ),
  ...Object.entries(FIXED_TOKENS).map(
    ([name, value]) => `--_${name}: var(--pi-${name}, ${value});`,
  ),
  "color-scheme: var(--_scheme-color-scheme, var(--_os-color-scheme, light));",
].join("\n");

/**
 * Token styles of every pi element. `theme="dark"` or `theme="light"` forces a scheme for the
 * element and every pi element inside it; unset (or `auto`, which also drops an inherited theme)
 * follows `prefers-color-scheme`.
 */
export const tokenStyles = css`
  :host {
    ${unsafeCSS(scheme("os", 0))}
    ${unsafeCSS(resolved)}
  }
  @media (prefers-color-scheme: dark) {
    :host {
      ${unsafeCSS(scheme("os", 1))}
    }
  }
  :host([theme="dark"]) {
    ${unsafeCSS(scheme("scheme", 1))}
  }
  :host([theme="light"]) {
    ${unsafeCSS(scheme("scheme", 0))}
  }
  :host([theme="auto"]) {
    ${unsafeCSS(ALL.map((name) => `--_scheme-${name}: initial;`).join("\n"))}
  }
`;
