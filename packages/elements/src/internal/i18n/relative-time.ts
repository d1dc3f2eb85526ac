/** "5 min ago", "yesterday", "3 wk ago": how long ago a time was, in the element's language. */

const UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ["minute", 60],
  ["hour", 60 * 60],
  ["day", 24 * 60 * 60],
  ["week", 7 * 24 * 60 * 60],
  ["month", 30 * 24 * 60 * 60],
  ["year", 365 * 24 * 60 * 60],
];

/** Below this many seconds a time reads as "just now". */
const JUST_NOW_SECONDS = 45;

const formats = new Map<string, Intl.RelativeTimeFormat>();
const dates = new Map<string, Intl.DateTimeFormat>();

// A `lang` attribute can hold anything; a tag Intl rejects falls back to English.
function cached<F>(cache: Map<string, F>, lang: string, make: (lang: string) => F): F {
  let format = cache.get(lang);
  if (format === undefined) {
    try {
      format = make(lang);
    } catch {
      format = make("en");
    }
    cache.set(lang, format);
  }
  return format;
}

/**
 * How long before `now` the time `then` was, rounded to the largest whole unit ("5 min ago",
 * "yesterday", "2 mo ago"), or `justNow` within the last minute. `undefined` for a time that does
 * not parse.
 */
export function relativeTime(
  then: string | number | Date,
  now: number,
  lang: string,
  justNow: string,
): string | undefined {
  const time = new Date(then).getTime();
  if (Number.isNaN(time)) return undefined;
  const seconds = Math.round((now - time) / 1000);
  // A clock a little ahead of ours is "just now", not "in 5 seconds".
  if (seconds < JUST_NOW_SECONDS) return justNow;
  let unit: Intl.RelativeTimeFormatUnit = "minute";
  let size = 60;
  for (const [name, length] of UNITS) {
    if (seconds < length) break;
    unit = name;
    size = length;
  }
  const rtf = cached(
    formats,
    lang,
    (tag) => new Intl.RelativeTimeFormat(tag, { numeric: "auto", style: "short" }),
  );
  return rtf.format(-Math.max(1, Math.round(seconds / size)), unit);
}

/** The full date and time, for a tooltip next to a relative time. */
export function fullDate(then: string | number | Date, lang: string): string {
  const time = new Date(then);
  if (Number.isNaN(time.getTime())) return "";
  const format = cached(
    dates,
    lang,
    (tag) => new Intl.DateTimeFormat(tag, { dateStyle: "medium", timeStyle: "short" }),
  );
  return format.format(time);
}
