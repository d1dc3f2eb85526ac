/**
 * Pins the pi behaviour the cluster's storage fence relies on, for each supported pi line: pi
 * opens its session file by path for every entry it appends (`appendFileSync`). So once a new
 * owner renames the file, a frozen old pi that wakes up writes into a new, headerless file at the
 * old path, and never into the renamed file the new owner's pi resumes. If a pi release ever kept
 * the file open instead, this test fails, and the fence must fork into a new file instead.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { type ModelServer, type PiCommand, piCommand, startModelServer } from "@pi-kit/testing";
import { fenceSessionFile } from "../../src/cluster/storage-fence.ts";
import { lineVersions } from "../helpers.ts";

/** pi reads RPC commands on stdin and writes records on stdout, one JSON object a line. */
class RpcPi {
  readonly #child: ChildProcess;
  readonly #waiters: {
    match: (r: Record<string, unknown>) => boolean;
    resolve: (r: Record<string, unknown>) => void;
  }[] = [];
  #buffer = "";

  constructor(child: ChildProcess) {
    this.#child = child;
    child.stdout?.setEncoding("utf8");
    child.stdout?.on("data", (chunk: string) => {
      this.#buffer += chunk;
      for (let nl = this.#buffer.indexOf("\n"); nl !== -1; nl = this.#buffer.indexOf("\n")) {
        const line = this.#buffer.slice(0, nl);
        this.#buffer = this.#buffer.slice(nl + 1);
        if (!line.startsWith("{")) continue;
        const record = JSON.parse(line) as Record<string, unknown>;
        for (const waiter of this.#waiters.splice(0)) {
          if (waiter.match(record)) waiter.resolve(record);
          else this.#waiters.push(waiter);
        }
      }
    });
  }

  /** Sends a prompt and resolves when pi's agent run for it ends. */
  async prompt(message: string): Promise<void> {
    await this.#send({ type: "prompt", message }, (r) => r.type === "agent_end");
  }

  /** The messages of pi's session (`get_messages`). */
  async messages(): Promise<unknown[]> {
    const response = await this.#send(
      { type: "get_messages", id: "m" },
      (r) => r.type === "response" && r.id === "m",
    );
    return (response.data as { messages: unknown[] }).messages;
  }

  #send(command: object, until: (r: Record<string, unknown>) => boolean) {
    const answered = new Promise<Record<string, unknown>>((resolve) =>
      this.#waiters.push({ match: until, resolve }),
    );
    this.#child.stdin?.write(`${JSON.stringify(command)}\n`);
    return answered;
  }
}

/** Spawns pi from `command` with `extra` arguments, adding the child to `children`. */
function spawnPi(command: PiCommand, extra: string[], children: ChildProcess[]): ChildProcess {
  const child = spawn(command.command, [...command.args, ...extra], {
    cwd: command.cwd,
    env: command.env,
    stdio: ["pipe", "pipe", "ignore"],
  });
  children.push(child);
  return child;
}

/** The session files under `dir`, recursively. */
function sessionFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(".jsonl"))
    .map((e) => join(e.parentPath, e.name));
}

let server: ModelServer;
const scratch = mkdtempSync(join(tmpdir(), "pi-kit-append-"));
before(async () => {
  server = await startModelServer();
});
after(async () => {
  await server.close();
  rmSync(scratch, { recursive: true, force: true });
});

for (const version of lineVersions) {
  test(`pi ${version}: after its session file is renamed, pi's next entries go to a new file at the old path, never into the renamed one; a new pi resumes the renamed file`, {
    timeout: 120_000,
  }, async () => {
    const sessionDir = join(scratch, `sessions-${version}`);
    const command = piCommand({ version, baseUrl: server.baseUrl, sessionDir });
    const commands = [command];
    const children: ChildProcess[] = [];
    try {
      const pi = new RpcPi(spawnPi(command, [], children));
      await pi.prompt("first");
      const [file, ...others] = sessionFiles(sessionDir);
      assert.ok(file !== undefined && others.length === 0, "one session file");
      const written = readFileSync(file, "utf8");
      assert.equal(JSON.parse(written.split("\n")[0] as string).type, "session");

      const messages = (await pi.messages()).length;
      const fenced = await fenceSessionFile(file, 2);
      await pi.prompt("second after the fence");

      assert.equal(readFileSync(fenced, "utf8"), written, "the renamed file got nothing more");
      const stray = readFileSync(file, "utf8").trimEnd().split("\n");
      assert.notEqual(JSON.parse(stray[0] as string).type, "session", "headerless: not a pi file");
      assert.ok(
        stray.some((line) => line.includes("second after the fence")),
        "the late entries are in the stray file",
      );

      // The new owner's pi resumes the fenced file: the transcript as it was, and its own
      // entries go there.
      const next = piCommand({ version, baseUrl: server.baseUrl, sessionDir });
      commands.push(next);
      const resumed = new RpcPi(spawnPi(next, ["--session", fenced], children));
      assert.equal((await resumed.messages()).length, messages);
      await resumed.prompt("third on the new owner");
      const now = readFileSync(fenced, "utf8");
      assert.ok(now.startsWith(written) && now.includes("third on the new owner"));
      assert.equal(
        readFileSync(file, "utf8").includes("third"),
        false,
        "the stray file is left alone",
      );
    } finally {
      for (const child of children) child.kill("SIGKILL");
      for (const c of commands) c.dispose();
    }
  });
}
