/**
 * First paint of a recorded 20-message conversation on the chat page (first-paint-page.ts), from
 * navigation to the frame that shows all of it, against the same page with the parts that now load
 * on first use back in its entry (first-paint-eager-page.ts), interleaved in one run: loading them
 * later must not make the first paint slower (issue 26 item 6).
 */

import { openPage } from "../../test-support/browser-page.ts";
import { compareAsync, report } from "../lib/measure.ts";

const lazy = await openPage(new URL("./first-paint-page.ts", import.meta.url).pathname);
const eager = await openPage(new URL("./first-paint-eager-page.ts", import.meta.url).pathname);
try {
  const firstPaint = async ({ page, url }: typeof lazy): Promise<number> => {
    await page.goto(url);
    await page.waitForFunction(() => (window as { benchReady?: boolean }).benchReady === true);
    return page.evaluate(() => (window as { firstPaintMs?: number }).firstPaintMs ?? Number.NaN);
  };
  const times = await compareAsync({
    lazy: () => firstPaint(lazy),
    eager: () => firstPaint(eager),
  });
  console.log(
    `first paint (median): as shipped ${times.lazy.toFixed(1)} ms, with the lazy parts in the entry ${times.eager.toFixed(1)} ms`,
  );
  report("chat page first paint", [
    {
      name: "first paint of a recorded 20-message conversation, as shipped vs all in the entry",
      value: times.lazy / times.eager,
      op: "<=",
      target: 1.1,
      unit: "x",
    },
  ]);
} finally {
  await lazy.close();
  await eager.close();
}
