/**
 * Every shell block in every README says whether it runs here: `<!-- readme-commands: run -->`
 * before the block, or `<!-- readme-commands: not run (why) -->`. Each command of a marked block
 * runs as written from the repository root (a fresh clone in CI: `.ci/run` is `npm ci` then
 * `npm test`), with `--port 8787` made `--port 0` and `PORT=0` so it never meets another server,
 * and `XDG_STATE_HOME` a temp dir so a bridge's default sessions directory is not the tester's.
 * A server must start and answer: a bridge is asked for a prompt (on the scripted model) or its
 * session list; an example's printed URL is opened in Chromium and a prompt answered there.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { PiClient } from "@pi-kit/client";
import { createNodeWebSocketTransport } from "@pi-kit/client/ws-node";
import { type Browser, chromium } from "playwright-core";
import { chromiumArgs, chromiumPath } from "../../../scripts/chromium.mjs";
import { send } from "./harness.ts";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const MARK = /^<!-- readme-commands: (run|not run \(.+\)) -->$/;

/** Every README of the repository, relative to its root. */
function readmes(): string[] {
  const found = ["README.md"];
  for (const dir of ["packages", "apps", "examples"]) {
    found.push(`${dir}/README.md`);
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true }))
      if (entry.isDirectory()) found.push(`${dir}/${entry.name}/README.md`);
  }
  return found.filter((path) => {
    try {
      readFileSync(join(root, path));
      return true;
    } catch {
      return false;
    }
  });
}

/** A README's shell blocks, each with the marker on the line before it (or undefined). */
function shellBlocks(path: string): { mark: string | undefined; commands: string[] }[] {
  const lines = readFileSync(join(root, path), "utf8").split("\n");
  const blocks: { mark: string | undefined; commands: string[] }[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(sh|bash|shell|console)\s*$/.test(lines[i] as string)) continue;
    let before = i - 1;
    while (before >= 0 && lines[before]?.trim() === "") before--;
    const mark = MARK.exec(lines[before] ?? "")?.[1];
    const commands: string[] = [];
    for (i++; i < lines.length && !(lines[i] as string).startsWith("```"); i++) {
      const command = (lines[i] as string).replace(/\s+#.*$/, "").trim();
      if (command !== "" && !command.startsWith("#")) commands.push(command);
    }
    blocks.push({ mark, commands });
  }
  return blocks;
}

const blocks = readmes().flatMap((path) => shellBlocks(path).map((block) => ({ path, ...block })));
const commands = blocks.flatMap((b) => (b.mark === "run" ? b.commands : []));

test("every README shell block says whether it runs in the tests", () => {
  const unmarked = blocks
    .filter((b) => b.mark === undefined)
    .map((b) => `${b.path}: ${b.commands[0]}`);
  assert.deepEqual(unmarked, []);
  assert.ok(commands.length >= 6, `only ${commands.length} commands are marked to run`);
});

/** A command started as a shell would, in its own process group, with its output collected. */
interface Started {
  readonly child: ChildProcess;
  output: string;
  readonly exited: Promise<number | null>;
}

function start(command: string, state: string): Started {
  const child = spawn("sh", ["-c", command.replace(/--port 8787\b/, "--port 0")], {
    cwd: root,
    env: { ...process.env, PORT: "0", XDG_STATE_HOME: state },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const started: Started = {
    child,
    output: "",
    exited: new Promise((resolve) => child.once("exit", (code) => resolve(code))),
  };
  child.stdout?.on("data", (chunk: Buffer) => (started.output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (started.output += chunk.toString()));
  return started;
}

/** Resolves with the first match of `pattern` in the output; rejects if the command exits first. */
function waitFor(started: Started, pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const check = (): void => {
      const match = pattern.exec(started.output);
      if (match === null) return;
      started.child.stdout?.off("data", check);
      resolve(match);
    };
    started.child.stdout?.on("data", check);
    void started.exited.then((code) =>
      reject(new Error(`exited with ${code} before printing ${pattern}:\n${started.output}`)),
    );
    check();
  });
}

/** Ctrl-C to the whole process group, as a terminal sends it; resolves when the command exits. */
async function stop(started: Started): Promise<void> {
  if (started.child.exitCode === null && started.child.pid !== undefined)
    process.kill(-started.child.pid, "SIGINT");
  await started.exited;
}

let browser: Browser;
before(async () => {
  browser = await chromium.launch({ executablePath: chromiumPath(), args: [...chromiumArgs] });
});
after(async () => {
  await browser?.close();
});

for (const command of commands)
  test(`README command runs as written: ${command}`, { timeout: 240_000 }, async () => {
    const state = mkdtempSync(join(tmpdir(), "pi-kit-readme-state-"));
    const started = start(command, state);
    try {
      const ready = await waitFor(started, /(listening on|^Open) (http:\/\/\S+)/m);
      const url = ready[2] as string;
      if (ready[1] === "Open") {
        // An example: its page connects through the bridge it was served with and gets an answer.
        const page = await browser.newPage();
        const errors: string[] = [];
        page.on("pageerror", (error) => errors.push(error.message));
        try {
          await page.goto(url);
          await send(page, "Say hello");
          await page.locator("pi-chat").getByText("Echo: Say hello").first().waitFor();
          assert.deepEqual(errors, []);
        } finally {
          await page.close();
        }
        return;
      }
      const token = (await waitFor(started, /^token: (\S+)$/m))[1] as string;
      if (command.includes("--scripted")) {
        // The embedded scripted model answers, without an API key.
        const transport = await createNodeWebSocketTransport({
          url: `${url.replace(/^http/, "ws")}/sessions/readme/ws`,
          token,
        });
        const client = await PiClient.connect(transport);
        try {
          await client.promptAndWait("Say hello");
          assert.equal(await client.getLastAssistantText(), "Echo: Say hello");
        } finally {
          await client.close();
        }
      } else {
        const sessions = await fetch(`${url}/api/sessions`, {
          headers: { authorization: `Bearer ${token}` },
        });
        assert.equal(sessions.status, 200);
      }
    } finally {
      await stop(started);
      rmSync(state, { recursive: true, force: true });
    }
  });
