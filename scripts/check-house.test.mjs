// scripts/check-house.mjs on small repositories written to a temp folder: a tidy one passes, and
// each way of breaking a rule is found and named. Run: node --test scripts/check-house.test.mjs
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";

const script = fileURLToPath(new URL("./check-house.mjs", import.meta.url));
const temps = [];
after(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** A package `@x/a` (its exports: "." and "./sub") whose folders import only downwards. */
const TIDY = {
  "packages/a/package.json": JSON.stringify({
    name: "@x/a",
    exports: {
      ".": { "@pi-kit/source": "./src/index.ts", default: "./dist/index.js" },
      "./sub": { "@pi-kit/source": "./src/sub/index.ts" },
    },
  }),
  "packages/a/src/index.ts": 'export * from "./one/one.ts";\nexport { two } from "./two/two.ts";\n',
  "packages/a/src/one/one.ts": 'import { two } from "../two/two.ts";\nexport const one = two;\n',
  // An import shown in documentation is not one the file makes.
  "packages/a/src/two/two.ts":
    '/**\n * import { one } from "../one/one.ts";\n */\nexport const two = 2;\n',
  "packages/a/src/sub/index.ts": "export const sub = 1;\n",
  "apps/demo/src/main.ts": 'import { view } from "./views/view.ts";\nview();\n',
  "apps/demo/src/views/view.ts": "export function view(): void {}\n",
};

/** Runs the check on a repository of the given files; its exit code and output. */
function check(files) {
  const repo = mkdtempSync(join(tmpdir(), "check-house-"));
  temps.push(repo);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), text);
  }
  const run = spawnSync(process.execPath, [script, repo], { encoding: "utf8" });
  return { code: run.status, out: run.stdout + run.stderr };
}

const lines = (n) => "export const x = 1;\n".repeat(n);

test("a tidy repository passes", () => {
  const { code, out } = check(TIDY);
  assert.equal(code, 0, out);
  assert.match(out, /house rules hold/);
});

test("two folders importing each other are named, with one import each way", () => {
  const { code, out } = check({
    ...TIDY,
    "packages/a/src/two/two.ts":
      'import type { one } from "../one/one.ts";\nexport const two = 2;\n',
  });
  assert.equal(code, 1);
  assert.match(out, /folder rule: packages\/a\/src: one and two import each other/);
  assert.match(out, /one -> two: packages\/a\/src\/one\/one\.ts:1 imports "\.\.\/two\/two\.ts"/);
  assert.match(out, /two -> one: packages\/a\/src\/two\/two\.ts:1 imports "\.\.\/one\/one\.ts"/);
});

test("`export … from`, dynamic import() and the package root count", () => {
  const reexport = check({
    ...TIDY,
    "packages/a/src/two/two.ts": 'export { one } from "../one/one.ts";\nexport const two = 2;\n',
  });
  assert.match(reexport.out, /one and two import each other/);
  const root = check({
    ...TIDY,
    "packages/a/src/sub/index.ts": 'export const sub = () => import("../index.ts");\n',
    "packages/a/src/index.ts": `${TIDY["packages/a/src/index.ts"]}export * from "./sub/index.ts";\n`,
  });
  assert.equal(root.code, 1);
  assert.match(root.out, /packages\/a\/src: \. and sub import each other/);
});

test("a package importing itself by name goes through its exports", () => {
  const { code, out } = check({
    ...TIDY,
    "packages/a/src/sub/index.ts":
      'import { one } from "../one/one.ts";\nexport const sub = one;\n',
    "packages/a/src/one/one.ts": 'import { sub } from "@x/a/sub";\nexport const one = sub;\n',
  });
  assert.equal(code, 1);
  assert.match(out, /one -> sub: packages\/a\/src\/one\/one\.ts:1 imports "@x\/a\/sub"/);
});

test("the demo's server is a root of its own", () => {
  const { code, out } = check({
    ...TIDY,
    "apps/demo/server/http/routes.ts": 'import "../store/db.ts";\n',
    "apps/demo/server/store/db.ts": 'import "../http/routes.ts";\n',
  });
  assert.equal(code, 1);
  assert.match(out, /apps\/demo\/server: http and store import each other/);
});

test("a source file over 450 lines is named with its count; .d.ts and generated files are not", () => {
  const { code, out } = check({
    ...TIDY,
    "packages/a/src/one/long.ts": lines(451),
    "packages/a/src/one/just-fits.ts": lines(450),
    "packages/a/src/one/types.d.ts": lines(600),
    "packages/react/src/components.ts": lines(600),
  });
  assert.equal(code, 1);
  assert.match(out, /line limit: packages\/a\/src\/one\/long\.ts has 451 lines \(at most 450\)/);
  assert.doesNotMatch(out, /just-fits|types\.d\.ts|components\.ts/);
  assert.match(out, /1 house rule broken/);
});
