/** Shared helpers for benchmarks: repeated timing with a median, and result printing. */

/** True for the short smoke run CI does (`BENCH_QUICK=1`); full runs use bigger inputs. */
export const quick = process.env.BENCH_QUICK === "1";

/** Runs `fn` `runs` times after one warm-up and returns the median wall time in milliseconds. */
export function medianMs(fn: () => void, runs = quick ? 3 : 7): number {
  fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] as number;
}

/**
 * Times several functions round-robin (one run of each per round, after a warm-up round) and
 * returns each one's median in milliseconds. Interleaving spreads the machine's noise evenly
 * over the contenders, which matters more for a ratio than any single figure.
 */
export function compareMs<K extends string>(
  contenders: Record<K, () => void>,
  rounds = quick ? 5 : 9,
): Record<K, number> {
  const names = Object.keys(contenders) as K[];
  const times = new Map<K, number[]>(names.map((n) => [n, []]));
  for (let round = -1; round < rounds; round++) {
    for (const name of names) {
      const start = performance.now();
      contenders[name]();
      if (round >= 0) times.get(name)?.push(performance.now() - start);
    }
  }
  return mediansOf(times);
}

/**
 * {@link compareMs} for contenders that time themselves (say, in a browser page): each returns its
 * own figure in milliseconds; the medians of `rounds` interleaved rounds, after a warm-up round.
 */
export async function compareAsync<K extends string>(
  contenders: Record<K, () => Promise<number>>,
  rounds = quick ? 5 : 9,
): Promise<Record<K, number>> {
  const names = Object.keys(contenders) as K[];
  const times = new Map<K, number[]>(names.map((n) => [n, []]));
  for (let round = -1; round < rounds; round++)
    for (const name of names) {
      const ms = await contenders[name]();
      if (round >= 0) times.get(name)?.push(ms);
    }
  return mediansOf(times);
}

function mediansOf<K extends string>(times: Map<K, number[]>): Record<K, number> {
  const medians = {} as Record<K, number>;
  for (const [name, list] of times) {
    const sorted = list.sort((a, b) => a - b);
    medians[name] = sorted[Math.floor(sorted.length / 2)] as number;
  }
  return medians;
}

/** One line of a benchmark report. */
export interface Check {
  /** What was compared. */
  name: string;
  /** The measured ratio or figure. */
  value: number;
  /** How the figure must compare to `target`. */
  op: ">=" | "<=";
  /** The target from the issue. */
  target: number;
  /** Unit or explanation printed after the value. */
  unit?: string;
}

/** Prints the checks as a table; sets a failing exit code when a target is missed in a full run. */
export function report(title: string, checks: Check[]): void {
  console.log(
    `\n## ${title}${quick ? " (quick smoke run: small inputs, targets informative)" : ""}`,
  );
  // A figure that is not a number means the benchmark itself broke: fail even a smoke run.
  const broken = checks.filter((c) => !Number.isFinite(c.value)).map((c) => c.name);
  if (broken.length > 0) throw new Error(`${title}: no figure for ${broken.join(", ")}`);
  for (const c of checks) {
    const ok = c.op === ">=" ? c.value >= c.target : c.value <= c.target;
    const figure = c.value >= 100 ? c.value.toFixed(0) : c.value.toFixed(2);
    console.log(
      `${ok ? "PASS" : "MISS"}  ${c.name}: ${figure}${c.unit ?? ""}  (target ${c.op} ${c.target})`,
    );
    if (!ok && !quick) process.exitCode = 1;
  }
}
