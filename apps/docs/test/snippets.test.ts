/**
 * Every TypeScript snippet of the hand-written pages typechecks against the packages: each
 * ```ts block becomes a module under .tmp/snippets/ and `tsc` checks them with the repo's strict
 * settings. (The element pages' declarations come from the API report, which the build checks.)
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join, relative } from "node:path";
import { test } from "node:test";

const docs = new URL("../src/content/docs/", import.meta.url).pathname;
const out = new URL("../.tmp/snippets/", import.meta.url).pathname;

/** The hand-written pages (the generated element and API pages are not). */
function pages(dir = docs): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = join(dir, name);
    if (statSync(file).isDirectory())
      return name === "elements" || name === "api" ? [] : pages(file);
    return /\.mdx?$/.test(name) ? [file] : [];
  });
}

test("every TypeScript snippet of the site typechecks", () => {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const files: string[] = [];
  for (const page of pages()) {
    const blocks = [...readFileSync(page, "utf8").matchAll(/^```ts\n([\s\S]*?)^```$/gm)];
    blocks.forEach((block, i) => {
      const name = `${relative(docs, page).replace(/[/.]/g, "_")}_${i + 1}.ts`;
      // Each snippet is its own module, so top-level await and its imports stand as written.
      writeFileSync(join(out, name), `${block[1]}\nexport {};\n`);
      files.push(name);
    });
  }
  assert.ok(files.length >= 1, "no TypeScript snippet found");
  // Angular is installed in its example only (its peer ranges clash with the root's packages).
  mkdirSync(join(out, "node_modules"));
  symlinkSync(
    new URL("../../../examples/angular/node_modules/@angular", import.meta.url).pathname,
    join(out, "node_modules/@angular"),
  );
  writeFileSync(
    join(out, "tsconfig.json"),
    JSON.stringify({
      extends: "../../../../tsconfig.base.json",
      compilerOptions: {
        noEmit: true,
        composite: false,
        types: ["node"],
        lib: ["ES2022", "DOM"],
      },
      include: files,
    }),
  );
  const tsc = new URL("../../../node_modules/typescript/bin/tsc", import.meta.url).pathname;
  try {
    execFileSync(process.execPath, [tsc, "-p", join(out, "tsconfig.json")], { encoding: "utf8" });
  } catch (error) {
    assert.fail(`snippets do not typecheck:\n${(error as { stdout?: string }).stdout ?? error}`);
  }
});
