/**
 * Every built-in table, imported at once, for code that wants them synchronously (the elements
 * themselves load a language's table on first use: `built-in-strings.ts`).
 */
import { en } from "./locales/en.ts";
import { zhCN } from "./locales/zh-CN.ts";
import type { PiStrings } from "./pi-strings.ts";

export { zhCN } from "./locales/zh-CN.ts";

/** The built-in tables by BCP 47 tag. */
export const BUILT_IN_STRINGS: Readonly<Record<string, PiStrings>> = { en, "zh-CN": zhCN };

/** Picks the built-in table for a language tag: exact, then by primary subtag, else English. */
export function stringsFor(lang: string | undefined, overrides?: Partial<PiStrings>): PiStrings {
  const tag = (lang ?? "").toLowerCase();
  const base = tag.startsWith("zh") ? zhCN : en;
  return overrides === undefined ? base : { ...base, ...overrides };
}
