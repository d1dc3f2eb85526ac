/** Async counterparts of `bench/lib/measure.ts`'s timing helpers, for work that crosses promises. */
import { quick } from "../lib/measure.ts";

/** The median of `values` (the upper one of an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/**
 * Times async contenders round-robin (one run of each per round, after a warm-up round) and
 * returns each one's median in milliseconds, like `compareMs`. A contender may return its own
 * duration (when setup or teardown must stay out of the figure); otherwise its wall time counts.
 */
export async function compareMsAsync<K extends string>(
  contenders: Record<K, () => Promise<number | undefined>>,
  rounds = quick ? 5 : 9,
): Promise<Record<K, number>> {
  const names = Object.keys(contenders) as K[];
  const times = new Map<K, number[]>(names.map((n) => [n, []]));
  for (let round = -1; round < rounds; round++) {
    for (const name of names) {
      const start = performance.now();
      const own = await contenders[name]();
      const elapsed = own ?? performance.now() - start;
      if (round >= 0) times.get(name)?.push(elapsed);
    }
  }
  const medians = {} as Record<K, number>;
  for (const name of names) medians[name] = median(times.get(name) ?? []);
  return medians;
}
