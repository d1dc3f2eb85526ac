/**
 * <pi-chat> in Chromium: main-thread cost per streamed text delta with 2000 vs 20 messages of
 * history (target: at most 1.5x), and 1000 deltas per second with no long task over 50 ms.
 */
import { quick, report } from "../lib/measure.ts";
import { openPage } from "./browser.ts";

const { page, close } = await openPage(new URL("./chat-page.ts", import.meta.url).pathname);
try {
  const deltas = quick ? 100 : 400;
  type Fns = {
    perDelta(h: number, d: number): Promise<number>;
    sustained(
      rate: number,
      s: number,
    ): Promise<{ delivered: number; longTasks: number[]; frames: number }>;
  };
  const small = await page.evaluate((d) => (window as unknown as Fns).perDelta(20, d), deltas);
  const large = await page.evaluate((d) => (window as unknown as Fns).perDelta(2000, d), deltas);
  const small2 = await page.evaluate((d) => (window as unknown as Fns).perDelta(20, d), deltas);
  const base = Math.min(small, small2);
  const run = await page.evaluate(
    (s) => (window as unknown as Fns).sustained(1000, s),
    quick ? 1 : 3,
  );
  const longest = run.longTasks.length ? Math.max(...run.longTasks) : 0;
  console.log(`per delta: 20 msgs ${base.toFixed(3)} ms, 2000 msgs ${large.toFixed(3)} ms`);
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
