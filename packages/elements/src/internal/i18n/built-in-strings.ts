/**
 * The built-in tables as the elements load them: English is always there; another language's
 * table is its own chunk, fetched the first time an element shows that language, so a page pays
 * only for the languages it shows. (`stringsFor` in `i18n.ts` stays the synchronous lookup for
 * code that imports every table.)
 */
import { en } from "./locales/en.ts";
import type { PiStrings } from "./pi-strings.ts";

/** Each non-English built-in table, by the primary language subtag it answers for. */
const LOADERS: Readonly<Record<string, () => Promise<PiStrings>>> = {
  zh: () => import("./locales/zh-CN.ts").then((module) => module.zhCN),
};
const loaded = new Map<string, PiStrings>();
const loading = new Map<string, Promise<void>>();

/** The built-in table for `lang` as far as it is loaded. */
export interface BuiltInStrings {
  /** The table for `lang`, or English while it loads (or when there is none for `lang`). */
  readonly strings: PiStrings;
  /** Settles once the table for `lang` has loaded, when it has not yet. */
  readonly ready?: Promise<void>;
}

/** Picks the table for a language tag by its primary subtag, else English; loads it if needed. */
export function builtInStrings(lang: string): BuiltInStrings {
  const primary = lang.toLowerCase().split("-")[0] ?? "";
  const load = LOADERS[primary];
  if (load === undefined) return { strings: en };
  const table = loaded.get(primary);
  if (table !== undefined) return { strings: table };
  let ready = loading.get(primary);
  if (ready === undefined) {
    ready = load().then(
      (strings) => void loaded.set(primary, strings),
      // A chunk that failed to load (offline) leaves English in place; the next use tries again.
      () => void loading.delete(primary),
    );
    loading.set(primary, ready);
  }
  return { strings: en, ready };
}
