/**
 * Records golden RPC transcripts of real pi (1.x and 0.73.1) against the scripted model server,
 * into `packages/protocol/test/fixtures/pi-<version>/<scenario>.jsonl`.
 *
 * Run from the repo root: `/usr/bin/node --conditions=@pi-kit/source --import tsx packages/testing/scripts/record-fixtures.ts [scenario…]`
 * Each scenario gets a fresh pi process; temp paths, the repo path and the server port are
 * replaced by stable placeholders so re-recording gives small diffs.
 */

import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { formatTranscriptEntry } from "@pi-kit/protocol";
import {
  type LaunchedPi,
  type LaunchOptions,
  launchPi,
  type ModelServer,
  type PiVersion,
  REASONING_MODEL,
  startModelServer,
} from "../src/index.ts";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const FIXTURES = join(REPO_ROOT, "packages/protocol/test/fixtures");
const PLACEHOLDER_TEMP = "/tmp/pi-kit-fixture";
const PLACEHOLDER_REPO = "/repo";
const PLACEHOLDER_SERVER = "http://127.0.0.1:43210";
const TIMEOUT_MS = 30_000;

/** One recorded scenario: how to launch pi and what to do with it. */
interface Scenario {
  readonly name: string;
  readonly launch?: Partial<LaunchOptions>;
  run(pi: LaunchedPi, version: PiVersion): Promise<void>;
}

/** Waits for the end of the run started after `since`: agent_settled on 1.x, agent_end on 0.73. */
async function runEnd(pi: LaunchedPi, version: PiVersion, since: number): Promise<void> {
  await pi.waitForType(version === "1" ? "agent_settled" : "agent_end", {
    since,
    timeoutMs: TIMEOUT_MS,
  });
}

/** Sends a prompt and waits for the run to end. */
async function prompt(pi: LaunchedPi, version: PiVersion, message: string): Promise<void> {
  const since = pi.mark();
  await pi.request({ type: "prompt", message }, { timeoutMs: TIMEOUT_MS });
  await runEnd(pi, version, since);
}

const scenarios: readonly Scenario[] = [
  { name: "text", run: (pi, v) => prompt(pi, v, "[[text Hello from pi-kit.]]") },
  {
    name: "thinking",
    launch: { model: REASONING_MODEL },
    run: (pi, v) => prompt(pi, v, "[[think Weighing two options.]] [[text Option B.]]"),
  },
  { name: "bash-tool", run: (pi, v) => prompt(pi, v, "[[bash echo hi]]") },
  {
    name: "bash-command",
    run: async (pi) => {
      await pi.request(
        { type: "bash", command: "echo out; echo err >&2" },
        { timeoutMs: TIMEOUT_MS },
      );
    },
  },
  {
    name: "extension-dialog",
    launch: { uiProbe: true },
    run: async (pi) => {
      const since = pi.mark();
      const response = pi.request(
        { type: "prompt", message: "/ui select" },
        { timeoutMs: TIMEOUT_MS },
      );
      const dialog = await pi.waitFor(
        (r) => r.type === "extension_ui_request" && r.method === "select",
        { since, timeoutMs: TIMEOUT_MS },
      );
      pi.send({ type: "extension_ui_response", id: dialog.id, value: "B" });
      await response;
    },
  },
  {
    name: "abort",
    run: async (pi, version) => {
      const since = pi.mark();
      await pi.request(
        { type: "prompt", message: "[[slow 50ms x 40]]" },
        { timeoutMs: TIMEOUT_MS },
      );
      await pi.waitFor(
        (r) =>
          r.type === "message_update" &&
          (r.assistantMessageEvent as { type?: string } | undefined)?.type === "text_delta",
        { since, timeoutMs: TIMEOUT_MS },
      );
      await pi.request({ type: "abort" }, { timeoutMs: TIMEOUT_MS });
      await runEnd(pi, version, since);
    },
  },
  {
    name: "retry",
    run: async (pi, version) => {
      const since = pi.mark();
      await pi.request(
        { type: "prompt", message: "[[fail 503 x2]] [[text Recovered.]]" },
        { timeoutMs: TIMEOUT_MS },
      );
      if (version === "1") return runEnd(pi, version, since);
      // 0.73.1 ends every failed attempt with agent_end: wait for the retry to succeed first.
      await pi.waitForType("auto_retry_end", { since, timeoutMs: TIMEOUT_MS });
      await runEnd(
        pi,
        version,
        pi.records.findIndex((r, i) => i >= since && r.json?.type === "auto_retry_end"),
      );
    },
  },
  { name: "unicode", run: (pi, v) => prompt(pi, v, "[[unicode]]") },
];

/** Replaces every occurrence of each key with its value. */
function scrub(text: string, replacements: ReadonlyMap<string, string>): string {
  let out = text;
  for (const [from, to] of replacements) out = out.split(from).join(to);
  return out;
}

async function record(
  server: ModelServer,
  version: PiVersion,
  scenario: Scenario,
): Promise<string> {
  server.reset();
  const pi = await launchPi({ version, baseUrl: server.baseUrl, ...scenario.launch });
  try {
    // The usual readiness handshake opens every transcript.
    await pi.request({ type: "get_state" }, { timeoutMs: TIMEOUT_MS });
    await scenario.run(pi, version);
  } finally {
    await pi.close();
  }
  const replacements = new Map([
    [pi.spec.tempRoot, PLACEHOLDER_TEMP],
    [REPO_ROOT, PLACEHOLDER_REPO],
    [server.url, PLACEHOLDER_SERVER],
  ]);
  const dir = join(FIXTURES, `pi-${pi.spec.piVersion}`);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${scenario.name}.jsonl`);
  const lines = pi.transcript.map((entry) =>
    formatTranscriptEntry({ ...entry, record: scrub(entry.record, replacements) }),
  );
  writeFileSync(file, lines.join(""));
  return `${file.slice(REPO_ROOT.length + 1)} (${lines.length} records)`;
}

const only = new Set(process.argv.slice(2));
const server = await startModelServer();
try {
  for (const version of ["1", "0.73"] as const) {
    for (const scenario of scenarios) {
      if (only.size > 0 && !only.has(scenario.name)) continue;
      console.log(`recorded ${await record(server, version, scenario)}`);
    }
  }
} finally {
  await server.close();
}
