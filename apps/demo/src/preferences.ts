/** The visitor's choices, kept in `localStorage`: theme, language, panels, internal notices. */
import { type DemoLang, demoStrings } from "./demo-strings.ts";

/** A colour scheme. */
export type Theme = "light" | "dark";

/** What the page remembers between visits. */
export interface Preferences {
  /** A chosen theme; unset follows the system. */
  readonly theme: Theme | undefined;
  readonly lang: DemoLang;
  /** Whether the session panel (statistics, fork, tree) is open. */
  readonly panel: boolean;
  /** Whether internal notices (system prompt updates) show in the transcript. */
  readonly internalNotices: boolean;
}

const KEY = "pi-kit-demo:preferences";
const darkQuery = matchMedia("(prefers-color-scheme: dark)");

function defaults(): Preferences {
  return {
    theme: undefined,
    lang: navigator.language.startsWith("zh") ? "zh-CN" : "en",
    panel: false,
    internalNotices: false,
  };
}

/** The saved preferences, each field falling back to its default. */
export function loadPreferences(): Preferences {
  const base = defaults();
  let saved: Partial<Record<keyof Preferences, unknown>> = {};
  try {
    saved = JSON.parse(localStorage.getItem(KEY) ?? "{}") ?? {};
  } catch {
    // A damaged entry is replaced on the next save.
  }
  return {
    theme: saved.theme === "light" || saved.theme === "dark" ? saved.theme : base.theme,
    lang:
      typeof saved.lang === "string" && saved.lang in demoStrings
        ? (saved.lang as DemoLang)
        : base.lang,
    panel: typeof saved.panel === "boolean" ? saved.panel : base.panel,
    internalNotices:
      typeof saved.internalNotices === "boolean" ? saved.internalNotices : base.internalNotices,
  };
}

/** Saves the preferences. */
export function savePreferences(preferences: Preferences): void {
  localStorage.setItem(KEY, JSON.stringify(preferences));
}

/** The system's colour scheme now. */
export function systemTheme(): Theme {
  return darkQuery.matches ? "dark" : "light";
}

/** Calls `listener` when the system's colour scheme changes; returns the remover. */
export function onSystemThemeChange(listener: () => void): () => void {
  darkQuery.addEventListener("change", listener);
  return () => darkQuery.removeEventListener("change", listener);
}

/**
 * Applies the theme and language to the document itself, so the page's canvas, scrollbars and
 * form controls follow the scheme (`color-scheme`) and screen readers the language.
 */
export function applyToDocument(theme: Theme, lang: DemoLang): void {
  const root = document.documentElement;
  root.style.colorScheme = theme;
  root.dataset.theme = theme;
  root.lang = lang;
}
