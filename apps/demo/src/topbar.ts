/**
 * The bar above the chat: the menu button on small screens, the conversation's title and its
 * count of changed files, the model, thinking and permission pickers, and the page's actions
 * (another device, the session panel, the colour scheme, the language).
 */
import { html, nothing } from "lit";
import type { DemoLang, DemoStrings } from "./demo-strings.ts";
import { icons } from "./icons.ts";
import type { Theme } from "./preferences.ts";

/** What the bar shows, and what its buttons do. */
export interface TopbarState {
  readonly lang: DemoLang;
  readonly strings: DemoStrings;
  /** The sidebar is a drawer, and `navOpen` says whether it shows. */
  readonly narrow: boolean;
  readonly navOpen: boolean;
  /** The conversation's title; `undefined` until the history said. */
  readonly title: string | undefined;
  /** The count of changed files, and the "continue on another device" button, as rendered. */
  readonly changes: unknown;
  readonly pairing: unknown;
  readonly panel: boolean;
  readonly theme: Theme;
  readonly openNav: () => void;
  readonly showPanel: (show: boolean) => void;
  readonly setTheme: (theme: Theme) => void;
  readonly setLang: (lang: DemoLang) => void;
}

/** The bar. */
export function topbar(view: TopbarState): unknown {
  const { strings: t, lang, panel, theme } = view;
  return html`
    <header class="topbar">
      ${
        view.narrow
          ? html`<button
              class="icon-button menu-button"
              aria-label=${t.openMenu}
              aria-controls="sidebar"
              aria-expanded=${view.navOpen ? "true" : "false"}
              @click=${view.openNav}
            >${icons.menu}</button>`
          : nothing
      }
      <h1 class="chat-title">${view.title ?? html`<span class="sr-only">${t.opening}</span>`}</h1>${view.changes}
      <div class="pickers">
        <pi-model-picker hide-label lang=${lang}></pi-model-picker>
        <pi-thinking-picker lang=${lang}></pi-thinking-picker>
        <pi-permission-picker hide-label lang=${lang}></pi-permission-picker>
      </div>
      <div class="actions">
        ${view.pairing}
        <button
          class="icon-button"
          aria-label=${panel ? t.closePanel : t.openPanel}
          aria-controls="panel"
          aria-expanded=${panel ? "true" : "false"}
          @click=${() => view.showPanel(!panel)}
        >${icons.panel}</button>
        <button
          class="icon-button"
          aria-label=${theme === "dark" ? t.toLight : t.toDark}
          @click=${() => view.setTheme(theme === "dark" ? "light" : "dark")}
        >${theme === "dark" ? icons.light : icons.dark}</button>
        <button
          class="text-button"
          aria-label=${t.languageLabel}
          @click=${() => view.setLang(lang === "en" ? "zh-CN" : "en")}
        >${t.language}</button>
      </div>
    </header>
  `;
}
