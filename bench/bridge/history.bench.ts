/**
 * History benchmark: one page of 50 sessions out of 10,000 against one page out of 100, through
 * the bridge's HTTP app (target: at most 3x, an index and not a rescan). Both pages are timed at
 * the top of the history and at a cursor halfway down. A request goes to the app's fetch handler
 * (routing, token check, the page, JSON) without a socket: on a loaded machine loopback TCP
 * varies by tens of milliseconds, far more than the page costs. Also prints how long a bridge
 * takes to index 10,000 sessions at start, without and with its index file.
 *
 * Search (`q=`) matches the messages' text as well as titles: a page of 50 found in the answers of
 * every session is held to the same target. A search that matches nothing reads every session's
 * search text in memory (never the files), so its time grows with the history: it is printed.
 *
 * Run on Node 22: node --conditions=@pi-kit/source bench/bridge/history.bench.ts
 */
import { mkdtempSync, rmSync, statSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ServedBridge, silentLogger } from "@pi-kit/bridge";
import { serveBridge } from "@pi-kit/bridge/node";
import type { SessionPage } from "@pi-kit/client";
import { writePiSession } from "../../packages/bridge/test/pi-session-files.ts";
import { compareMsAsync } from "../client/timing.ts";
import { quick, report } from "../lib/measure.ts";

const LARGE = quick ? 2000 : 10_000;
const SMALL = 100;
const PAGE = 50;
const REQUESTS = quick ? 50 : 500;

/** A sessions directory of `count` sessions of 1-3 turns, each active a minute after the last. */
function sessionsDir(count: number): string {
  const root = mkdtempSync(join(tmpdir(), `pi-kit-history-bench-${count}-`));
  const start = Date.parse("2026-01-01T00:00:00Z");
  for (let i = 0; i < count; i++) {
    const { path } = writePiSession(join(root, `session-${i}`), {
      cwd: root,
      turns: 1 + (i % 3),
      firstPrompt: `Task ${i}: make the build faster`,
    });
    const at = new Date(start + i * 60_000);
    utimesSync(path, at, at);
  }
  return root;
}

/** A bridge on `dir` whose history is indexed; resolves with how long the index took. */
async function bridgeOn(dir: string): Promise<{ served: ServedBridge; indexMs: number }> {
  const started = performance.now();
  // No session is opened, so pi never runs: the command only has to be valid.
  const served = await serveBridge({
    pi: { command: "pi", args: ["--mode", "rpc"] },
    sessionsDir: dir,
    port: 0,
    logger: silentLogger,
  });
  await served.bridge.history.list({ limit: 1 });
  return { served, indexMs: performance.now() - started };
}

/** Found in every session's answers (pi-session-files' answer), in no title. */
const EVERYWHERE = "reads a continued line twice";
/** In no session. */
const NOWHERE = "no session says this";

/** One page through the app; resolves `undefined` so the round's wall time is what counts. */
async function page(
  served: ServedBridge,
  cursor?: string,
  q?: string,
  expected = PAGE,
): Promise<undefined> {
  const query = `limit=${PAGE}${cursor === undefined ? "" : `&cursor=${cursor}`}${q === undefined ? "" : `&q=${encodeURIComponent(q)}`}`;
  const request = new Request(`${served.url}/api/sessions?${query}`, {
    headers: { authorization: `Bearer ${served.token}` },
  });
  const response = await served.bridge.app.fetch(request);
  const body = (await response.json()) as SessionPage;
  if (body.sessions.length !== expected) throw new Error(`a page of ${body.sessions.length}`);
  return undefined;
}

/** The cursor of the page that ends halfway down the history. */
async function middle(served: ServedBridge, count: number): Promise<string> {
  const pages = await served.bridge.history.list({ limit: Math.floor(count / 2) });
  if (pages.nextCursor === null) throw new Error("no cursor");
  return pages.nextCursor;
}

const smallDir = sessionsDir(SMALL);
const largeDir = sessionsDir(LARGE);
try {
  const small = await bridgeOn(smallDir);
  const cold = await bridgeOn(largeDir);
  const smallMiddle = await middle(small.served, SMALL);
  const largeMiddle = await middle(cold.served, LARGE);
  const times = await compareMsAsync(
    {
      smallTop: () => page(small.served),
      largeTop: () => page(cold.served),
      smallMiddle: () => page(small.served, smallMiddle),
      largeMiddle: () => page(cold.served, largeMiddle),
      smallSearch: () => page(small.served, undefined, EVERYWHERE),
      largeSearch: () => page(cold.served, undefined, EVERYWHERE),
      smallMiss: () => page(small.served, undefined, NOWHERE, 0),
      largeMiss: () => page(cold.served, undefined, NOWHERE, 0),
    },
    REQUESTS,
  );
  await cold.served.close(); // saves the index file
  const indexFile = statSync(join(largeDir, ".pi-kit-index.json")).size;
  const warm = await bridgeOn(largeDir);
  await warm.served.close();
  await small.served.close();

  const ms = (n: number) => `${n.toFixed(2)} ms`;
  console.log(
    `page of ${PAGE}, top: ${SMALL} sessions ${ms(times.smallTop)}, ${LARGE} sessions ${ms(times.largeTop)}`,
  );
  console.log(
    `page of ${PAGE}, halfway: ${SMALL} sessions ${ms(times.smallMiddle)}, ${LARGE} sessions ${ms(times.largeMiddle)}`,
  );
  console.log(
    `search in the messages, page of ${PAGE}: ${SMALL} sessions ${ms(times.smallSearch)}, ${LARGE} sessions ${ms(times.largeSearch)}; ` +
      `matching none: ${SMALL} sessions ${ms(times.smallMiss)}, ${LARGE} sessions ${ms(times.largeMiss)}`,
  );
  console.log(
    `indexing ${LARGE} sessions at start: ${cold.indexMs.toFixed(0)} ms reading every file, ` +
      `${warm.indexMs.toFixed(0)} ms with the index file (${(indexFile / 1024 / 1024).toFixed(1)} MiB)`,
  );
  report("history pages", [
    {
      name: `one page of ${PAGE} out of ${LARGE} vs out of ${SMALL} sessions (top)`,
      value: times.largeTop / times.smallTop,
      op: "<=",
      target: 3,
      unit: "x",
    },
    {
      name: `one page of ${PAGE} out of ${LARGE} vs out of ${SMALL} sessions (halfway)`,
      value: times.largeMiddle / times.smallMiddle,
      op: "<=",
      target: 3,
      unit: "x",
    },
    {
      name: `a search in the messages, page of ${PAGE} out of ${LARGE} vs out of ${SMALL} sessions`,
      value: times.largeSearch / times.smallSearch,
      op: "<=",
      target: 3,
      unit: "x",
    },
  ]);
} finally {
  rmSync(smallDir, { recursive: true, force: true });
  rmSync(largeDir, { recursive: true, force: true });
}
