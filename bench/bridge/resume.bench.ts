/**
 * Resume benchmark: reopening a stopped session of 2000 messages until its transcript is painted
 * in <pi-chat> in Chromium (the page connects, the bridge starts pi on the session file, the client
 * loads the transcript, the element renders it), against the floor of pi itself starting on that
 * file and answering `get_messages` (target: at most 2x). The session file is written in pi's
 * format exactly (see `packages/bridge/test/pi-session-files.ts`); rounds alternate the two.
 *
 * Run on Node 22: node --conditions=@pi-kit/source bench/bridge/resume.bench.ts
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { silentLogger } from "@pi-kit/bridge";
import { serveBridge } from "@pi-kit/bridge/node";
import { piCommand, sessionHostOptions, startModelServer } from "@pi-kit/testing";
import { withoutModelChoice } from "../../packages/bridge/src/sessions/pi-args.ts";
import { writePiSession } from "../../packages/bridge/test/pi-session-files.ts";
import { openPage } from "../../test-support/browser-page.ts";
import { compareMsAsync } from "../client/timing.ts";
import { quick, report } from "../lib/measure.ts";

const MESSAGES = 2000;
// Two messages a turn, two more every fifth turn (a tool call and its result).
const TURNS = 834;
const ROUNDS = quick ? 3 : 7;
const NAME = "long";

const model = await startModelServer();
const pi = piCommand({ version: "1", baseUrl: model.baseUrl });
const host = sessionHostOptions(pi);
const dir = join(host.sessionsDir, NAME);
const file = writePiSession(dir, { cwd: pi.workspace, turns: TURNS, firstPrompt: "Start" });
if (file.messages !== MESSAGES) throw new Error(`wrote ${file.messages} messages`);
const lastText = `Answer ${TURNS}.`;

/** pi alone: spawned on the file as the bridge starts it, until its `get_messages` answer is parsed. */
function floor(): Promise<number> {
  const start = performance.now();
  const child = spawn(
    host.pi.command,
    [...withoutModelChoice(host.pi.args), "--session-dir", dir, "--session", file.path],
    { cwd: host.pi.cwd, env: host.pi.env, stdio: ["pipe", "pipe", "ignore"] },
  );
  child.stdin.write('{"type":"get_messages","id":"floor"}\n');
  return new Promise((resolve, reject) => {
    let buffered = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      buffered += chunk;
      for (let lf = buffered.indexOf("\n"); lf !== -1; lf = buffered.indexOf("\n")) {
        const line = buffered.slice(0, lf);
        buffered = buffered.slice(lf + 1);
        if (!line.startsWith('{"id":"floor"')) continue;
        const count = (JSON.parse(line) as { data: { messages: unknown[] } }).data.messages.length;
        const ms = performance.now() - start;
        child.stdin.end();
        child.once("exit", () =>
          count === MESSAGES ? resolve(ms) : reject(new Error(`${count} messages`)),
        );
      }
    });
  });
}

const served = await serveBridge({ ...host, port: 0, origins: ["*"], logger: silentLogger });
const { page, close } = await openPage(new URL("./resume-page.ts", import.meta.url).pathname);
const wsUrl = `${served.url.replace(/^http/, "ws")}/sessions/${NAME}/ws`;
type Reopen = {
  reopen(u: string, t: string, l: string): Promise<{ ms: number; messages: number }>;
};

/** The page reopens the stopped session; then the session is stopped again for the next round. */
async function reopen(): Promise<number> {
  const result = await page.evaluate(([u, t, l]) => (window as unknown as Reopen).reopen(u, t, l), [
    wsUrl,
    served.token,
    lastText,
  ] as const);
  if (result.messages !== MESSAGES) throw new Error(`${result.messages} messages in <pi-chat>`);
  await served.bridge.history.stop(NAME);
  return result.ms;
}

try {
  const times = await compareMsAsync({ floor, reopen }, ROUNDS);
  console.log(
    `${MESSAGES} messages: pi on the file to get_messages ${times.floor.toFixed(0)} ms; ` +
      `reopened and painted in <pi-chat> ${times.reopen.toFixed(0)} ms (median of ${ROUNDS})`,
  );
  report("reopening a stopped session", [
    {
      name: `reopen to painted <pi-chat>, ${MESSAGES} messages, vs pi's own start and get_messages`,
      value: times.reopen / times.floor,
      op: "<=",
      target: 2,
      unit: "x",
    },
  ]);
} finally {
  await close();
  await served.close();
  await model.close();
  pi.dispose();
}
