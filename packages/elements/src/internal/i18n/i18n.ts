/**
 * Translatable strings: one typed table per language (English and Simplified Chinese built in, one
 * file each under `locales/`), chosen per element from its `lang` or its nearest ancestor's, with
 * per-element overrides. There is no global registry: two chats on one page can speak different
 * languages. This module resolves an element's language; `format` (in `format.ts`, which lazily
 * loaded views share) fills a string's placeholders. English stays in the page's entry chunk;
 * the tables other than English load when first shown (`built-in-strings.ts`), or all at once
 * from `all-strings.ts`.
 */

export type { PiStrings } from "./pi-strings.ts";

/** The language that applies to an element: its own `lang`, else the nearest ancestor's, across shadow roots. */
export function resolveLang(element: Element): string {
  let node: Element | null = element;
  while (node !== null) {
    const lang = node.getAttribute("lang");
    if (lang) return lang;
    const parent: Element | null = node.parentElement;
    if (parent !== null) node = parent;
    else {
      const root = node.getRootNode();
      node = root instanceof ShadowRoot ? root.host : null;
    }
  }
  return "en";
}
