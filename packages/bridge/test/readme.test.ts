import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { pageShowing, readmeExamples } from "../../../test-support/readme-examples.ts";
import { runtime } from "./helpers.ts";

const pkg = new URL("../", import.meta.url);
const examples = readmeExamples(pkg);

/** Runs an example the way the README's reader would, on Node; returns what it printed. */
function run(name: string): string {
  const path = examples.get(name) as string;
  const state = mkdtempSync(join(tmpdir(), "pi-kit-readme-"));
  const result = spawnSync(
    process.execPath,
    ["--conditions=@pi-kit/source", "--import", "tsx", path],
    // The default sessions directory lands in a temp state directory, not the tester's home.
    { encoding: "utf8", timeout: 60_000, env: { ...process.env, XDG_STATE_HOME: state } },
  );
  rmSync(state, { recursive: true, force: true });
  assert.equal(result.status, 0, result.stderr);
  return result.stdout;
}

/** Whether the page that shows examples/`name` (README or docs site) shows what it prints. */
function shownWith(name: string, printed: string): boolean {
  const page = pageShowing(pkg, readFileSync(examples.get(name) as string, "utf8"));
  return page?.includes(`It prints:\n\n\`\`\`\n${printed}\`\`\``) ?? false;
}

// Both examples use the Node adapter, so they run on the Node leg; Deno and Bun users swap the
// import for /deno or /bun, which the other tests cover on their runtimes.
if (runtime === "node") {
  test("documented example serve.ts: a bridge, a client through it, and the policy at work", () => {
    const out = run("serve.ts");
    assert.match(out, /^bridge on http:\/\/127\.0\.0\.1:\d+$/m);
    assert.match(out, /^pi said: Echo: Say hello$/m);
    assert.match(out, /^bash: Denied by bridge policy: `bash` is not allowed on this bridge$/m);
  });

  test("documented example mount.ts: the bridge mounted in a Hono app answers its API", () => {
    assert.match(
      run("mount.ts"),
      /^GET \/pi\/api\/sessions: 200 \{ sessions: \[\], nextCursor: null \}$/m,
    );
  });

  test("documented example hono-tickets.ts: a Hono app mints its user's ticket; the user reaches their sessions", () => {
    const out = run("hono-tickets.ts");
    const printed =
      "without a login: 401\npi answered: Echo: Hello from Ada\nAda's sessions: notes\n";
    assert.equal(out, printed);
    assert.ok(
      shownWith("hono-tickets.ts", printed),
      "the page that shows the example shows what it prints",
    );
  });

  test("documented example viewers.ts: a watcher is refused, takes control and drives pi", () => {
    const out = run("viewers.ts");
    const printed =
      "phone sees: Desk in control, 2 viewers\nphone prompt: not_in_control\nphone prompt: started; desk sees: Phone in control, 2 viewers\n";
    assert.equal(out, printed);
    assert.ok(
      shownWith("viewers.ts", printed),
      "the page that shows the example shows what it prints",
    );
  });

  test("documented example history.ts: stop, rename, list, resume and delete a session", () => {
    const out = run("history.ts");
    const printed =
      'parser-fix: "Parser speed", 3 messages, stopped\nresumed with 3 messages\nafter delete: 0 sessions\n';
    assert.equal(out, printed);
    assert.ok(
      shownWith("history.ts", printed),
      "the page that shows the example shows what it prints",
    );
  });

  test("documented example uploads.ts: a file uploaded in chunks, stored as sent, read by pi by its path", () => {
    const out = run("uploads.ts");
    const printed =
      ".pi-kit/uploads/{id}/scores.csv after 4, 8, 12, 16, 17 bytes\nstored as sent: true\npi's read: ada,3\n";
    assert.equal(out, printed);
    assert.ok(
      shownWith("uploads.ts", printed),
      "the page that shows the example shows what it prints",
    );
  });

  test("documented example changes.ts: pi's write is listed, and undoing the turn restores the workspace", () => {
    const out = run("changes.ts");
    const printed =
      'added ideas.md +1 -0\nundid "Note an idea [[write ideas.md first idea\\n]]": 0 files changed\n';
    assert.equal(out, printed);
    assert.ok(
      shownWith("changes.ts", printed),
      "the page that shows the example shows what it prints",
    );
  });
}
