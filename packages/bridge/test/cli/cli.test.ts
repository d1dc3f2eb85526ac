import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { type ModelServer, piCommand, sessionHostOptions, startModelServer } from "@pi-kit/testing";
import { defaultSessionsDir, generateToken, prepareSessionsDir } from "../../src/index.ts";
import { address, type CliProcess, printedToken, runCli } from "../cli-process.ts";
import { connect, connectClient } from "../helpers.ts";
import { mint, SECRET, ticketKeys } from "../ticket-helpers.ts";

const packageDir = fileURLToPath(new URL("../../", import.meta.url));

let model: ModelServer;
let scratch: string;
before(async () => {
  model = await startModelServer();
  scratch = realpathSync(mkdtempSync(join(tmpdir(), "pi-kit-cli-")));
});
after(async () => {
  await model.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** A fresh directory under the scratch root. */
function fresh(name: string): string {
  const dir = join(scratch, `${name}-${Math.random().toString(36).slice(2, 8)}`);
  mkdirSync(dir, { mode: 0o700 });
  return dir;
}

/** The permission bits of a path, as `0o700`-style numbers. */
const mode = (path: string): number => statSync(path).mode & 0o777;

/** Runs the CLI until it listens, or until it exits (a refusal). */
async function started(args: readonly string[], env: Record<string, string> = {}) {
  const cli = runCli([...args, "--", "pi", "--mode", "rpc"], {
    env: {
      ...(process.env as Record<string, string>),
      PI_KIT_BRIDGE_TOKEN: "",
      // The default sessions directory, inside the scratch root: one per bridge, as a bridge
      // refuses a sessions directory another one holds.
      XDG_STATE_HOME: fresh("state"),
      ...env,
    },
  });
  const url = await Promise.race([cli.listening(), cli.exited.then(() => undefined)]);
  return { cli, url };
}

/** Stops a CLI that is listening and waits for it to exit. */
async function stop(cli: CliProcess): Promise<void> {
  cli.child.kill("SIGTERM");
  await cli.exited;
}

/** The structured log entries the CLI wrote to stderr. */
function logEntries(cli: CliProcess): Record<string, unknown>[] {
  return cli
    .stderr()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

const warnings = (cli: CliProcess): string[] =>
  logEntries(cli)
    .filter((e) => e.event === "config_warning")
    .map((e) => String(e.message));

test("cli: sessions go to the user's state directory by default, directories 0700 and files 0600; pi never sees the token", async () => {
  const pi = piCommand({ version: "1", baseUrl: model.baseUrl });
  const host = sessionHostOptions(pi);
  const state = join(pi.home, "state");
  const token = generateToken();
  const cli = runCli(["--port", "0", "--", host.pi.command, ...host.pi.args], {
    env: { ...host.pi.env, XDG_STATE_HOME: state, PI_KIT_BRIDGE_TOKEN: token },
    cwd: host.pi.cwd,
  });
  try {
    const url = await cli.listening();
    const client = await connect(address(url, token), "work");
    await client.request({ type: "prompt", message: "[[bash env]]" }, 60_000);
    const end = await client.waitFor((r) => r.type === "tool_execution_end", 60_000);
    await client.waitFor((r) => r.type === "agent_settled", 60_000);
    // pi inherits the bridge's environment, but not its token.
    assert.match(JSON.stringify(end.result), /XDG_STATE_HOME/);
    assert.doesNotMatch(JSON.stringify(end.result), new RegExp(token));
    await client.close();
    await stop(cli);
    const sessions = join(state, "pi-kit", "bridge", "sessions");
    assert.equal(defaultSessionsDir({ XDG_STATE_HOME: state }), sessions);
    const modes = Object.fromEntries(
      [
        join(state, "pi-kit"),
        join(state, "pi-kit", "bridge"),
        sessions,
        join(sessions, "work"),
      ].map((dir) => [dir.slice(state.length), mode(dir)]),
    );
    assert.deepEqual(modes, {
      "/pi-kit": 0o700,
      "/pi-kit/bridge": 0o700,
      "/pi-kit/bridge/sessions": 0o700,
      "/pi-kit/bridge/sessions/work": 0o700,
    });
    const files = readdirSync(join(sessions, "work"), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name));
    assert.ok(
      files.some((f) => f.endsWith(".jsonl")),
      `pi wrote its transcript: ${files.join(", ")}`,
    );
    for (const file of files) assert.equal(mode(file), 0o600, file);
  } finally {
    cli.kill();
    pi.dispose();
  }
});

test("sessions dir: one another user owns or could write, or could swap, is refused with the fix", () => {
  const open = fresh("open");
  chmodSync(open, 0o777);
  assert.throws(() => prepareSessionsDir(open), /writable by its group and others.*chmod 700/);
  chmodSync(open, 0o770);
  assert.throws(() => prepareSessionsDir(open), /writable by its group \(mode 0770\)/);
  // A parent others may write (and not sticky like /tmp) lets them rename the directory away.
  const parent = fresh("parent");
  chmodSync(parent, 0o777);
  assert.throws(
    () => prepareSessionsDir(join(parent, "sessions")),
    /parent .* is writable by .*chmod go-w/,
  );
  // Another user's directory: as root, give one away; otherwise / is root's.
  let theirs = "/";
  if (process.getuid?.() === 0) {
    theirs = fresh("theirs");
    chownSync(theirs, 65_534, 65_534);
  }
  assert.throws(() => prepareSessionsDir(theirs), /belongs to user \d+, not to this user/);
  // A fine one is created private, parents included.
  const mine = join(fresh("mine"), "a", "b");
  prepareSessionsDir(mine);
  assert.equal(mode(mine), 0o700);
  assert.equal(mode(join(mine, "..")), 0o700);
});

test("cli: configuration mistakes are one line on stderr and exit code 2", async () => {
  const open = fresh("open");
  chmodSync(open, 0o777);
  const shortSecret = join(fresh("secret"), "secret");
  writeFileSync(shortSecret, "too-short\n", { mode: 0o600 });
  const cases: Array<[string[], RegExp]> = [
    [["--token", "abc"], /token must be 16-512 characters/],
    [["--deny", "bsh"], /Unknown command type in the policy: "bsh"/],
    [["--port", "99999"], /--port needs a whole number from 0 to 65535, got "99999"/],
    [["--bogus"], /Unknown option "--bogus"/],
    [["--token-file", join(scratch, "missing")], /Cannot read the token file/],
    [["--sandbox", "docker"], /--sandbox knows only bwrap, got "docker"/],
    [["--sandbox-read", "/opt"], /--sandbox-read.* need --sandbox bwrap/],
    [["--sessions-dir", open], /Unsafe sessions directory: .*`chmod 700 /],
    [["--ticket-secret-file", shortSecret], /ticket secret must be at least 32 bytes/],
    [
      ["--ticket-public-key-file", shortSecret],
      /ticket public key must be an Ed25519 public key in SPKI PEM/,
    ],
    [["--ticket-audience", "app"], /--ticket-audience .* need --ticket-secret-file/],
    [["--scripted"], /--scripted runs pi on the scripted model: give no pi command after --/],
  ];
  const runs = await Promise.all([
    ...cases.map(([args]) => started(["--port", "0", ...args])),
    // No bubblewrap on PATH.
    started(["--port", "0", "--sandbox", "bwrap"], { PATH: "/nonexistent" }),
  ]);
  cases.push([["--sandbox", "bwrap"], /Sandbox unavailable: bubblewrap is not installed/]);
  for (const [i, { cli, url }] of runs.entries()) {
    const [args, message] = cases[i] as [string[], RegExp];
    if (url !== undefined) await stop(cli);
    const exit = await cli.exited;
    const lines = cli.stderr().trimEnd().split("\n");
    assert.equal(exit.code, 2, `${args.join(" ")}: ${cli.stderr()}`);
    assert.equal(lines.length, 1, `${args.join(" ")}: ${cli.stderr()}`);
    assert.match(lines[0] as string, /^pi-kit-bridge: .* \(see --help\)$/);
    assert.match(lines[0] as string, message);
  }
});

test("cli: a token the operator chose is never printed; a generated one is printed once", async () => {
  const token = generateToken();
  const file = join(fresh("token"), "token");
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  const loose = join(fresh("token"), "token");
  writeFileSync(loose, `${token}\n`, { mode: 0o644 });
  const [flag, env, tokenFile, looseFile, generated] = await Promise.all([
    started(["--port", "0", "--token", token]),
    started(["--port", "0"], { PI_KIT_BRIDGE_TOKEN: token }),
    started(["--port", "0", "--token-file", file]),
    started(["--port", "0", "--token-file", loose]),
    started(["--port", "0"]),
  ]);
  try {
    for (const run of [flag, env, tokenFile, looseFile]) {
      assert.ok(run.url !== undefined, run.cli.stderr());
      assert.ok(!run.cli.stdout().includes(token), "the token is not printed");
      assert.ok(!run.cli.stderr().includes(token), "nor logged");
      // The bridge does use it.
      const response = await fetch(`${run.url}/api/sessions`, {
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(response.status, 200);
      await response.body?.cancel();
    }
    assert.match(warnings(flag.cli).join("\n"), /--token is visible .* in `ps`.*--token-file/);
    assert.deepEqual(warnings(env.cli), []);
    assert.deepEqual(warnings(tokenFile.cli), []);
    assert.match(warnings(looseFile.cli).join("\n"), /can be read by other users.*chmod 600/);
    const printed = printedToken(generated.cli.stdout());
    assert.ok(printed !== undefined && printed.length >= 43);
    assert.equal(generated.cli.stdout().split(printed).length, 2, "printed exactly once");
    assert.ok(!generated.cli.stderr().includes(printed), "never logged");
  } finally {
    await Promise.all([flag, env, tokenFile, looseFile, generated].map((r) => stop(r.cli)));
  }
});

test("cli: --ticket-secret-file and --ticket-public-key-file accept tickets; the secret is never printed", async () => {
  const keys = await ticketKeys();
  const dir = fresh("tickets");
  const secretFile = join(dir, "secret");
  writeFileSync(secretFile, `${SECRET}\n`, { mode: 0o600 });
  const keyFile = join(dir, "public.pem");
  writeFileSync(keyFile, keys.options.publicKey as string);
  const run = await started([
    "--port",
    "0",
    "--ticket-secret-file",
    secretFile,
    "--ticket-public-key-file",
    keyFile,
    "--ticket-audience",
    "my-app",
  ]);
  try {
    assert.ok(run.url !== undefined, run.cli.stderr());
    for (const alg of ["HS256", "EdDSA"] as const) {
      const ticket = await mint(keys, { sub: "dave", sessionPrefix: "", alg, audience: "my-app" });
      const response: Response = await fetch(`${run.url}/api/sessions`, {
        headers: { authorization: `Bearer ${ticket}` },
      });
      assert.equal(response.status, 200, alg);
      await response.body?.cancel();
    }
    const other = await mint(keys, { sub: "dave", sessionPrefix: "" });
    const refused = await fetch(`${run.url}/api/sessions`, {
      headers: { authorization: `Bearer ${other}` },
    });
    assert.equal(refused.status, 401, "the default audience is not my-app");
    assert.equal(((await refused.json()) as { code: string }).code, "ticket_wrong_audience");
    assert.ok(!run.cli.stdout().includes(SECRET) && !run.cli.stderr().includes(SECRET));
    assert.ok(!run.cli.stderr().includes(other), "a refused ticket is not logged");
    // Many users, one working directory: said at start, with the fix.
    assert.match(
      warnings(run.cli).join("\n"),
      /every ticket user's pi works in the same directory.*--workspaces-dir/,
    );
    const own = await started([
      "--port",
      "0",
      "--ticket-secret-file",
      secretFile,
      "--workspaces-dir",
      join(dir, "workspaces"),
    ]);
    assert.ok(own.url !== undefined, own.cli.stderr());
    assert.deepEqual(warnings(own.cli), []);
    assert.equal(mode(join(dir, "workspaces")), 0o700);
    await stop(own.cli);
  } finally {
    await stop(run.cli);
  }
});

test("cli: listening beyond loopback warns to put TLS in front, unless --behind-tls-proxy", async () => {
  const [open, proxied, loopback] = await Promise.all([
    started(["--port", "0", "--host", "0.0.0.0"]),
    started(["--port", "0", "--host", "0.0.0.0", "--behind-tls-proxy"]),
    started(["--port", "0", "--host", "127.0.0.1"]),
  ]);
  try {
    assert.match(
      warnings(open.cli).join("\n"),
      /--host 0\.0\.0\.0 exposes pi .* clear text: put a TLS terminator such as Caddy or nginx in front/,
    );
    assert.deepEqual(warnings(proxied.cli), []);
    assert.deepEqual(warnings(loopback.cli), []);
  } finally {
    await Promise.all([open, proxied, loopback].map((r) => stop(r.cli)));
  }
});

test("cli: --scripted answers with no API key on the scripted model, and removes its temp sessions on exit", async () => {
  const cli = runCli(["--port", "0", "--scripted"], {
    env: { ...(process.env as Record<string, string>), PI_KIT_BRIDGE_TOKEN: "" },
  });
  try {
    const url = await cli.listening();
    assert.match(cli.stdout(), /^model: scripted \(no API key; it echoes prompts\)$/m);
    const client = await connectClient(url, printedToken(cli.stdout()) as string, "scripted");
    try {
      await client.promptAndWait("Say hello");
      assert.equal(await client.getLastAssistantText(), "Echo: Say hello");
    } finally {
      await client.close();
    }
  } finally {
    cli.child.kill("SIGTERM");
    await cli.exited;
  }
  const started = logEntries(cli).find((entry) => entry.event === "bridge_started");
  const sessionsDir = started?.sessionsDir as string;
  assert.ok(sessionsDir.startsWith(realpathSync(tmpdir())), sessionsDir);
  assert.equal(existsSync(sessionsDir), false, "the temp sessions directory is removed");
});

test("cli: `npx @pi-kit/bridge` runs the package's one bin, an executable file", () => {
  const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as {
    name: string;
    bin: Record<string, string>;
  };
  // With a single bin, `npx <package>` runs it whatever its name.
  assert.equal(manifest.name, "@pi-kit/bridge");
  // A committed file, not build output: npm links a bin only if its file exists, and in a fresh
  // clone `npm ci` links before anything is built (`npx @pi-kit/bridge` was "not found").
  assert.deepEqual(Object.values(manifest.bin), ["./bin/pi-kit-bridge.js"]);
  const cli = join(packageDir, "bin", "pi-kit-bridge.js");
  assert.equal(statSync(cli).mode & 0o111, 0o111, "the bin is executable");
  assert.match(readFileSync(cli, "utf8"), /^#!\/usr\/bin\/env node\n/);
  const help = spawnSync(cli, ["--help"], { encoding: "utf8" });
  assert.equal(help.status, 0, help.stderr);
  assert.match(help.stdout, /^Usage: npx @pi-kit\/bridge /);
  assert.match(help.stdout, /--scripted/);
  // The README names only the scoped package: an unscoped name could be anyone's package.
  const readme = readFileSync(join(packageDir, "README.md"), "utf8");
  const commands = readme.match(/\bnpx\s+[^\s`]+/g) ?? [];
  assert.ok(commands.length > 0);
  assert.deepEqual(
    commands.filter((c) => !/^npx\s+@pi-kit\/bridge$/.test(c)),
    [],
    "every npx command names @pi-kit/bridge",
  );
});
