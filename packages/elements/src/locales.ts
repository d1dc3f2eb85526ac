/**
 * @module
 * The built-in string tables, all at once: `en`, `zhCN`, `BUILT_IN_STRINGS` and `stringsFor`, and
 * the history elements' own tables (`sessionStringsEn`, `sessionStringsZhCN`).
 * The elements need none of this: they load a language's table the first time they show it, so
 * a page pays for the languages it shows. Import from here to read or extend a table yourself.
 *
 * @example
 * ```ts
 * import { zhCN } from "@pi-kit/elements/locales";
 * chat.strings = { ...zhCN, send: "发" };
 * ```
 */
export { BUILT_IN_STRINGS, stringsFor, zhCN } from "./internal/i18n/all-strings.ts";
export { format } from "./internal/i18n/format.ts";
export type { PiStrings } from "./internal/i18n/i18n.ts";
export { en } from "./internal/i18n/locales/en.ts";
export {
  type PiSessionStrings,
  sessionStringsEn,
  sessionStringsFor,
  sessionStringsZhCN,
} from "./internal/i18n/session-strings.ts";
