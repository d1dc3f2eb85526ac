/**
 * WorkspaceFileIndex on a real directory tree: what it offers (`.gitignore`, hidden directories,
 * links that stay inside), what it never offers (links out, `..`), odd names, paging, typed errors,
 * and a file written a moment ago.
 */
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, symlink, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, test } from "node:test";
import { SessionHistoryError } from "../../src/index.ts";
import { WorkspaceFileIndex } from "../../src/node.ts";

let base: string;
let workspace: string;
let outside: string;
const open: WorkspaceFileIndex[] = [];

async function tree(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
}

function index(options: { watch?: boolean; maxAgeMs?: number } = {}): WorkspaceFileIndex {
  const created = new WorkspaceFileIndex({ workspace, ...options });
  open.push(created);
  return created;
}

async function all(files: WorkspaceFileIndex, query = ""): Promise<string[]> {
  const { entries } = await files.search({ query, limit: 200 });
  return entries.map((e) => (e.kind === "directory" ? `${e.path}/` : e.path)).sort();
}

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), "pi-kit-files-"));
  workspace = join(base, "workspace");
  outside = join(base, "outside");
  await tree(outside, { "secret.txt": "s", "deep/secret-key.pem": "k" });
  await mkdir(workspace);
});

afterEach(async () => {
  for (const files of open.splice(0)) files.close();
  await rm(base, { recursive: true, force: true });
});

test("it lists files and directories, honouring .gitignore (nested, negated) and hiding dot-directories", async () => {
  await tree(workspace, {
    ".gitignore": "dist/\n*.log\n!keep.log\n",
    ".env.example": "",
    "README.md": "",
    "src/app.ts": "",
    "src/.gitignore": "generated.ts\n",
    "src/generated.ts": "",
    "debug.log": "",
    "keep.log": "",
    "dist/bundle.js": "",
    "node_modules/lib/index.js": "",
    ".git/config": "",
    ".cache/x.txt": "",
  });
  const found = await all(index());
  assert.deepEqual(found, [
    ".env.example",
    ".gitignore",
    "README.md",
    "keep.log",
    "node_modules/",
    "node_modules/lib/",
    "node_modules/lib/index.js",
    "src/",
    "src/.gitignore",
    "src/app.ts",
  ]);
});

test("patterns with a slash are relative to their .gitignore's directory, and mix with name patterns", async () => {
  await tree(workspace, {
    ".gitignore": "/build\nsrc/gen/*.ts\n*.tmp\n",
    "build/out.js": "",
    "lib/build/kept.js": "",
    "src/gen/a.ts": "",
    "src/gen/a.md": "",
    "src/.gitignore": "/local.ts\nnested/**/x.ts\n!keep.tmp\n",
    "src/local.ts": "",
    "src/deep/local.ts": "",
    "src/nested/a/b/x.ts": "",
    "src/nested/y.ts": "",
    "src/keep.tmp": "",
    "src/drop.tmp": "",
  });
  assert.deepEqual(await all(index()), [
    ".gitignore",
    "lib/",
    "lib/build/",
    "lib/build/kept.js",
    "src/",
    "src/.gitignore",
    "src/deep/",
    "src/deep/local.ts",
    "src/gen/",
    "src/gen/a.md",
    "src/keep.tmp",
    "src/nested/",
    "src/nested/a/",
    "src/nested/a/b/",
    "src/nested/y.ts",
  ]);
});

test("a directory that a deeper .gitignore re-includes shows its files, as in git", async () => {
  await tree(workspace, { ".gitignore": "foo/\n", "a/.gitignore": "!foo/\n", "a/foo/x.ts": "" });
  await tree(workspace, { "foo/hidden.ts": "" });
  assert.deepEqual(await all(index()), [
    ".gitignore",
    "a/",
    "a/.gitignore",
    "a/foo/",
    "a/foo/x.ts",
  ]);
});

test("links that lead out of the workspace, or into a hidden directory's files, are never followed", async () => {
  await tree(workspace, { "src/a.ts": "", "docs/guide.md": "" });
  await symlink(outside, join(workspace, "out-dir"));
  await symlink(join(outside, "secret.txt"), join(workspace, "out-file.txt"));
  await symlink("../../outside/deep", join(workspace, "src/relative-out"));
  await symlink(join(workspace, "docs"), join(workspace, "docs-link"));
  await symlink("a.ts", join(workspace, "src/a-link.ts"));
  await symlink(workspace, join(workspace, "src/loop"));
  const files = index();
  const found = await all(files);
  assert.deepEqual(found, [
    "docs-link/",
    "docs/",
    "docs/guide.md",
    "src/",
    "src/a-link.ts",
    "src/a.ts",
    "src/loop/",
  ]);
  assert.deepEqual(await all(files, "secret"), []);
});

test("a query that reaches out of the workspace is a typed error; nothing outside is ever returned", async () => {
  await tree(workspace, { "a.txt": "" });
  const files = index();
  for (const query of [
    "../outside",
    "..",
    "a/../../x",
    "/etc/passwd",
    "~/x",
    "C:\\x",
    "a\u0000b",
    "x".repeat(257),
  ]) {
    await assert.rejects(files.search({ query }), (error: unknown) => {
      assert.ok(error instanceof SessionHistoryError);
      assert.equal(error.code, "invalid_request");
      assert.equal(error.hostCode, "invalid_query");
      return true;
    });
  }
  await assert.rejects(files.search({ query: "", cursor: "next" }), { hostCode: "invalid_cursor" });
  await assert.rejects(files.search({ query: "", limit: 0 }), { code: "invalid_request" });
});

test("names with spaces, percent-encoding, Unicode and dots are found as they are", async () => {
  const names = [
    "my notes.md",
    "%2e%2e%2fescape.txt",
    "caf\u00e9/men\u00fc.ts",
    "..hidden-ish",
    "a%20b.txt",
  ];
  await tree(workspace, Object.fromEntries(names.map((n) => [n, ""])));
  const files = index();
  assert.deepEqual((await files.search({ query: "my notes" })).entries[0], {
    path: "my notes.md",
    kind: "file",
  });
  assert.equal((await files.search({ query: "%2e%2e" })).entries[0]?.path, "%2e%2e%2fescape.txt");
  assert.equal(
    (await files.search({ query: "MEN\u00dc" })).entries[0]?.path,
    "caf\u00e9/men\u00fc.ts",
  );
  assert.equal((await files.search({ query: "a%20b" })).entries[0]?.path, "a%20b.txt");
  for (const entry of (await files.search({ query: "", limit: 200 })).entries) {
    assert.ok(!entry.path.startsWith("/") && !entry.path.split("/").includes(".."), entry.path);
  }
});

test("fuzzy matches rank the name first, then the path, and pages follow each other", async () => {
  const files: Record<string, string> = {
    "src/components/chat/pi-composer.ts": "",
    "docs/composer.md": "",
  };
  for (let i = 0; i < 120; i++) files[`gen/file-${String(i).padStart(3, "0")}.txt`] = "";
  await tree(workspace, files);
  const search = index();
  const composer = await search.search({ query: "composer" });
  assert.deepEqual(
    composer.entries.map((e) => e.path),
    ["docs/composer.md", "src/components/chat/pi-composer.ts"],
  );
  assert.equal(
    (await search.search({ query: "chatpicomp" })).entries[0]?.path,
    "src/components/chat/pi-composer.ts",
  );
  assert.deepEqual((await search.search({ query: "gen" })).entries[0], {
    path: "gen",
    kind: "directory",
  });
  const seen: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await search.search({ query: "file", limit: 50, ...(cursor ? { cursor } : {}) });
    seen.push(...page.entries.map((e) => e.path));
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  assert.equal(seen.length, 120);
  assert.equal(new Set(seen).size, 120);
});

test("a file or directory written a moment ago is found, and a deleted one is gone, with watches", async () => {
  await tree(workspace, { "src/a.ts": "" });
  const files = index();
  assert.deepEqual(await all(files, "fresh"), []);
  assert.equal(files.watching, true);
  await writeFile(join(workspace, "src/fresh-file.ts"), "");
  await mkdir(join(workspace, "fresh-dir/inner"), { recursive: true });
  await writeFile(join(workspace, "fresh-dir/inner/x.ts"), "");
  assert.deepEqual(await all(files, "fresh"), [
    "fresh-dir/",
    "fresh-dir/inner/",
    "fresh-dir/inner/x.ts",
    "src/fresh-file.ts",
  ]);
  await unlink(join(workspace, "src/fresh-file.ts"));
  await rm(join(workspace, "fresh-dir"), { recursive: true });
  assert.deepEqual(await all(files, "fresh"), []);
});

test("a changed .gitignore takes effect at the next search", async () => {
  await tree(workspace, { "a.log": "", "b.txt": "" });
  const files = index();
  assert.deepEqual(await all(files), ["a.log", "b.txt"]);
  await writeFile(join(workspace, ".gitignore"), "*.log\n");
  assert.deepEqual(await all(files), [".gitignore", "b.txt"]);
});

test("without watches, a stale index is walked again", async () => {
  await tree(workspace, { "a.txt": "" });
  const files = index({ watch: false, maxAgeMs: 0 });
  assert.deepEqual(await all(files), ["a.txt"]);
  assert.equal(files.watching, false);
  await writeFile(join(workspace, "new.txt"), "");
  assert.deepEqual(await all(files), ["a.txt", "new.txt"]);
});

test("a workspace that does not exist yet is empty, then found once it does", async () => {
  await rm(workspace, { recursive: true });
  const files = index({ maxAgeMs: 0 });
  assert.deepEqual(await all(files), []);
  await tree(workspace, { "later.txt": "" });
  assert.deepEqual(await all(files), ["later.txt"]);
});
