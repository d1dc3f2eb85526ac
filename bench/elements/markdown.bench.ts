/**
 * <pi-markdown> in Chromium. Streaming: a 50 KB paragraph, and 50 KB of hostile text (`_a_a_a…`,
 * a run of emphasis delimiters that never closes; with new letters each run, and as the literal
 * `"_a".repeat(25000)`), streamed in 40 deltas each cost at most 2x rendering them once
 * (finished pieces stay frozen; only the open end is parsed again). The work
 * counted is the element's: its updates (parsing, templates, DOM) and the layout at the end; the
 * figure with a layout after every delta, as a browser does once per frame, is printed too.
 * Hostile input: each message of up to 100 KB built to be slow or deep (nested quotes and lists,
 * runs of emphasis delimiters...) renders in at most 100x the time of a plain 100 KB paragraph.
 */

import { openPage } from "../../test-support/browser-page.ts";
import { compareAsync, quick, report } from "../lib/measure.ts";
import { hostileInputs, paragraph, underscoreRun } from "./markdown-inputs.ts";

const { page, close } = await openPage(new URL("./markdown-page.ts", import.meta.url).pathname);
try {
  const render = (text: string, deltas = 0, layoutEach = false): Promise<number> =>
    page.evaluate(
      ([t, d, l]) =>
        (window as unknown as { render(t: string, d: number, l: boolean): Promise<number> }).render(
          t,
          d,
          l,
        ),
      [text, deltas, layoutEach] as const,
    );
  const rounds = quick ? 3 : 11;

  // A new text for every run, so no cache of an earlier run helps either contender.
  const streamSize = quick ? 20_000 : 50_000;
  let seed = 1;
  const stream = await compareAsync(
    {
      once: () => render(paragraph(streamSize, seed++)),
      streamed: () => render(paragraph(streamSize, seed++), 40),
      framed: () => render(paragraph(streamSize, seed++), 40, true),
    },
    rounds,
  );
  console.log(
    `${streamSize / 1000} KB paragraph: once ${stream.once.toFixed(1)} ms, in 40 deltas ${stream.streamed.toFixed(1)} ms, with a layout after each delta ${stream.framed.toFixed(1)} ms (${(stream.framed / stream.once).toFixed(2)}x, for information)`,
  );

  const hostileStream = await compareAsync(
    {
      once: () => render(underscoreRun(streamSize, seed++)),
      streamed: () => render(underscoreRun(streamSize, seed++), 40),
    },
    rounds,
  );
  // The literal text, the same every run (issue 19's check): the once run finds every finished
  // piece in the caches, so the streamed run's open end is all that differs.
  const literal = "_a".repeat(streamSize / 2);
  const literalStream = await compareAsync(
    { once: () => render(literal), streamed: () => render(literal, 40) },
    rounds,
  );
  console.log(
    `"_a".repeat(${streamSize / 2}), the same text each run (cached pieces): once ${literalStream.once.toFixed(1)} ms, in 40 deltas ${literalStream.streamed.toFixed(1)} ms`,
  );
  console.log(
    `${streamSize / 1000} KB of "_a" runs: once ${hostileStream.once.toFixed(1)} ms, in 40 deltas ${hostileStream.streamed.toFixed(1)} ms`,
  );

  const size = quick ? 20_000 : 100_000;
  const inputs = hostileInputs(size);
  const times: Record<string, number> = await compareAsync(
    {
      plain: () => render(paragraph(size, seed++)),
      ...Object.fromEntries(
        Object.entries(inputs).map(([name, text]) => [name, () => render(text)]),
      ),
    },
    quick ? 1 : 3,
  );
  const plain = times.plain ?? Number.NaN;
  let worst = 0;
  let worstName = "";
  for (const name of Object.keys(inputs)) {
    const ratio = (times[name] ?? Number.NaN) / plain;
    console.log(`  ${name}: ${(times[name] ?? Number.NaN).toFixed(1)} ms (${ratio.toFixed(1)}x)`);
    if (!(ratio <= worst)) {
      worst = ratio;
      worstName = name;
    }
  }
  console.log(`plain ${size / 1000} KB paragraph: ${plain.toFixed(1)} ms; slowest: ${worstName}`);

  report("<pi-markdown>", [
    {
      name: `${streamSize / 1000} KB paragraph in 40 deltas vs rendered once`,
      value: stream.streamed / stream.once,
      op: "<=",
      target: 2,
      unit: "x",
    },
    {
      name: `${streamSize / 1000} KB of "_a" runs in 40 deltas vs rendered once`,
      value: hostileStream.streamed / hostileStream.once,
      op: "<=",
      target: 2,
      unit: "x",
    },
    {
      name: `"_a".repeat(${streamSize / 2}) in 40 deltas vs rendered once (cached pieces)`,
      value: literalStream.streamed / literalStream.once,
      op: "<=",
      target: 2,
      unit: "x",
    },
    {
      name: `slowest ${size / 1000} KB hostile input vs a plain paragraph (${worstName})`,
      value: worst,
      op: "<=",
      target: 100,
      unit: "x",
    },
  ]);
} finally {
  await close();
}
