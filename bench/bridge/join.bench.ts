/**
 * Join benchmark: a page that connects while pi is streaming an answer (a reload, a second viewer,
 * a reconnect) until the answer so far is painted in <pi-chat> in Chromium (target: within 500 ms
 * of connecting), against the same page joining an idle session and painting its last answer
 * (the baseline, measured in the same run, rounds alternating). pi's `get_messages` lacks the
 * message being streamed; the bridge's run snapshot brings it.
 *
 * Run on Node 22: node --conditions=@pi-kit/source bench/bridge/join.bench.ts
 */
import { silentLogger } from "@pi-kit/bridge";
import { serveBridge } from "@pi-kit/bridge/node";
import { PiClient } from "@pi-kit/client";
import { createNodeWebSocketTransport } from "@pi-kit/client/ws-node";
import { piCommand, sessionHostOptions, startModelServer } from "@pi-kit/testing";
import { openPage } from "../../test-support/browser-page.ts";
import { median } from "../client/timing.ts";
import { quick, report } from "../lib/measure.ts";

const ROUNDS = quick ? 3 : 11;
/** What the streaming answer shows once three ticks are in: the page waits for it. */
const PARTIAL = "tick 1 tick 2 tick 3 ";
const IDLE_ANSWER = "the idle session answered";

const model = await startModelServer();
const pi = piCommand({ version: "1", baseUrl: model.baseUrl });
const served = await serveBridge({
  ...sessionHostOptions(pi),
  port: 0,
  origins: ["*"],
  logger: silentLogger,
});
const wsUrl = (name: string) => `${served.url.replace(/^http/, "ws")}/sessions/${name}/ws`;

/** A client in this process that drives a session (the page only watches). */
async function driver(name: string): Promise<PiClient> {
  const transport = await createNodeWebSocketTransport({
    url: wsUrl(name),
    token: served.token,
    reconnect: false,
  });
  return PiClient.connect(transport, { handshakeTimeoutMs: 30_000 });
}

const { page, close } = await openPage(new URL("./join-page.ts", import.meta.url).pathname);
type Join = {
  join(u: string, t: string, e: string): Promise<{ connectedMs: number; paintedMs: number }>;
};
const join = (name: string, expected: string) =>
  page.evaluate(([u, t, e]) => (window as unknown as Join).join(u, t, e), [
    wsUrl(name),
    served.token,
    expected,
  ] as const);

const idle = await driver("idle");
const streaming = await driver("streaming");
try {
  await idle.promptAndWait(`[[text ${IDLE_ANSWER}]]`);
  // Ten ticks a second for far longer than the rounds take; aborted at the end.
  await streaming.prompt("[[slow 100ms x 100000]]");
  await new Promise<void>((resolve) => {
    const off = streaming.session.subscribe(() => {
      const message = streaming.session.getSnapshot().streamingMessage;
      if (!JSON.stringify(message ?? {}).includes(PARTIAL)) return;
      off();
      resolve();
    });
  });

  const midRun: number[] = [];
  const afterConnected: number[] = [];
  const baseline: number[] = [];
  for (let round = -1; round < ROUNDS; round++) {
    const joined = await join("streaming", PARTIAL);
    const opened = await join("idle", IDLE_ANSWER);
    if (round < 0) continue; // warm-up
    midRun.push(joined.paintedMs);
    afterConnected.push(joined.paintedMs - joined.connectedMs);
    baseline.push(opened.paintedMs);
  }
  const painted = median(midRun);
  console.log(
    `joining mid-answer: painted ${painted.toFixed(0)} ms after the page started connecting ` +
      `(max ${Math.max(...midRun).toFixed(0)} ms; ${median(afterConnected).toFixed(0)} ms of it ` +
      `after the client was connected); joining an idle session: painted ` +
      `${median(baseline).toFixed(0)} ms (medians of ${ROUNDS})`,
  );
  report("joining a session mid-run", [
    {
      name: "the answer so far painted in <pi-chat>, from connecting",
      value: painted,
      op: "<=",
      target: 500,
      unit: " ms",
    },
    {
      name: "joining mid-run vs joining an idle session, both to painted",
      value: painted / median(baseline),
      op: "<=",
      target: 2,
      unit: "x",
    },
  ]);
} finally {
  await streaming.abort().catch(() => {});
  await streaming.close();
  await idle.close();
  await close();
  await served.close();
  await model.close();
  pi.dispose();
}
