/**
 * <pi-chat> in Chromium: main-thread cost per streamed text delta with 2000 vs 20 messages of
 * history (target: at most 1.5x), and 1000 deltas per second with no long task over 50 ms.
 */

import { openPage } from "../../test-support/browser-page.ts";
import { quick, report } from "../lib/measure.ts";

const { page, close } = await openPage(new URL("./chat-page.ts", import.meta.url).pathname);
try {
  // Batches of 50 deltas per timed sample: the page's clock resolves 0.1 ms, about one delta.
  const batch = 50;
  const deltas = quick ? 500 : 2000;
  type Fns = {
    perDelta(h: number, d: number, b: number): Promise<number>;
    sustained(
      rate: number,
      s: number,
    ): Promise<{ delivered: number; longTasks: number[]; frames: number }>;
  };
  const measure = (history: number): Promise<number> =>
    page.evaluate(([h, d, b]) => (window as unknown as Fns).perDelta(h, d, b), [
      history,
      deltas,
      batch,
    ] as const);
  const small = await measure(20);
  const large = await measure(2000);
  const small2 = await measure(20);
  const base = Math.min(small, small2);
  const run = await page.evaluate(
    (s) => (window as unknown as Fns).sustained(1000, s),
    quick ? 1 : 3,
  );
  const longest = run.longTasks.length ? Math.max(...run.longTasks) : 0;
  console.log(
    `per delta (median of ${deltas / batch} batches of ${batch}): 20 msgs ${base.toFixed(3)} ms, 2000 msgs ${large.toFixed(3)} ms`,
  );
  console.log(
    `sustained: ${run.delivered} deltas in ${quick ? 1 : 3} s, ${run.frames} frames, ${run.longTasks.length} long tasks (max ${longest.toFixed(0)} ms)`,
  );
  report("<pi-chat> streaming", [
    {
      name: "per-delta cost, 2000 vs 20 messages of history",
      value: large / base,
      op: "<=",
      target: 1.5,
      unit: "x",
    },
    { name: "longest task at 1000 deltas/s", value: longest, op: "<=", target: 50, unit: " ms" },
    {
      name: "deltas delivered per second",
      value: run.delivered / (quick ? 1 : 3),
      op: ">=",
      target: 990,
      unit: "/s",
    },
  ]);
} finally {
  await close();
}
