import type { ThinkingLevel } from "@pi-kit/protocol";
import type { PiStrings } from "./i18n/i18n.ts";

const LABEL_KEYS = {
  off: "thinkingOff",
  minimal: "thinkingMinimal",
  low: "thinkingLow",
  medium: "thinkingMedium",
  high: "thinkingHigh",
  xhigh: "thinkingXhigh",
  max: "thinkingMax",
} as const satisfies Record<ThinkingLevel, keyof PiStrings>;

/** The translated name of a thinking level; a level a newer pi added shows as pi spells it. */
export function thinkingLevelLabel(level: string, strings: PiStrings): string {
  return level in LABEL_KEYS ? strings[LABEL_KEYS[level as ThinkingLevel]] : level;
}
