#!/usr/bin/env node
// Checks two house rules on every source root (packages/*/src, apps/demo/src, apps/demo/server):
//   the line limit:  no source .ts file is longer than 450 lines (.d.ts and the generated files
//                    listed in GENERATED are not source);
//   the folder rule: no two folders of a root import each other. A folder is the first path
//                    segment under the root; the root's own files are the folder ".", so a folder
//                    that imports the package's entry (which imports every folder) breaks it too.
//                    Type imports, `export … from`, side-effect and dynamic `import()` all count,
//                    and so does a package importing itself by name (through its exports map).
// Prints each broken rule with its evidence and exits 1, or prints "house rules hold" and exits 0.
// Usage: node scripts/check-house.mjs [repository root]   (default: this repository)
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** The longest a source file may be, in lines. */
const LINE_LIMIT = 450;
/** Files a script writes, relative to the repository root: their length is the generator's. */
const GENERATED = new Set(["packages/react/src/components.ts"]);

const repo = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), ".."));

/** The source roots, relative to the repository root, each with its package's manifest. */
function sourceRoots() {
  const roots = [];
  const packages = join(repo, "packages");
  const names = existsSync(packages) ? readdirSync(packages).sort() : [];
  for (const name of names) roots.push({ dir: `packages/${name}/src`, pkg: `packages/${name}` });
  roots.push(
    { dir: "apps/demo/src", pkg: "apps/demo" },
    { dir: "apps/demo/server", pkg: "apps/demo" },
  );
  return roots.filter((root) => existsSync(join(repo, root.dir)));
}

/** Every .ts/.tsx file under a directory except declaration files, sorted. */
function sourceFiles(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !e.name.endsWith(".d.ts"))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/** A file's line count, as `wc -l` gives it. */
function lineCount(text) {
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

// `import … from "x"`, `import type … from "x"`, `export … from "x"`, `import "x"`; then `import("x")`.
const STATIC = /\b(?:import|export)\s+(?:type\s+)?(?:[\w$*{}\s,]+?\s+from\s+)?["']([^"']+)["']/g;
const DYNAMIC = /\bimport\(\s*["'`]([^"'`$]+)["'`]\s*\)/g;

/**
 * The module specifiers a file imports, with their line numbers. Comment lines are blanked first
 * (TSDoc examples show imports that are not the file's own); line breaks stay, so lines still count.
 */
function specifiers(text) {
  const code = text.replace(/^\s*(?:\/\/|\/\*|\*).*$/gm, "");
  const found = [];
  for (const pattern of [STATIC, DYNAMIC]) {
    for (const match of code.matchAll(pattern)) {
      found.push({ spec: match[1], line: code.slice(0, match.index).split("\n").length });
    }
  }
  return found;
}

/** Where a package's name and subpaths point in its sources (the exports' "@pi-kit/source"). */
function selfExports(pkgDir) {
  const manifest = join(repo, pkgDir, "package.json");
  if (!existsSync(manifest)) return { name: undefined, entries: new Map() };
  const { name, exports } = JSON.parse(readFileSync(manifest, "utf8"));
  const entries = new Map();
  for (const [subpath, target] of Object.entries(exports ?? {})) {
    const source = typeof target === "object" ? target?.["@pi-kit/source"] : undefined;
    if (typeof source === "string") entries.set(subpath, join(repo, pkgDir, source));
  }
  return { name, entries };
}

/** The file or directory a specifier names, or undefined when it lies outside this package. */
function target(file, spec, self) {
  if (spec.startsWith(".")) return resolve(dirname(file), spec);
  if (self.name === undefined || (spec !== self.name && !spec.startsWith(`${self.name}/`))) {
    return undefined;
  }
  return self.entries.get(`.${spec.slice(self.name.length)}`);
}

/** The folder of a path under a root: its first segment, or "." for the root's own files. */
function folderOf(root, path) {
  const rel = relative(root, path);
  if (rel === "") return ".";
  if (rel.startsWith("..")) return undefined;
  const parts = rel.split(sep);
  if (parts.length > 1) return parts[0];
  return existsSync(path) && statSync(path).isDirectory() ? parts[0] : ".";
}

/** Files over the line limit: `{ file, lines }`. */
function longFiles(files) {
  const long = [];
  for (const file of files) {
    const rel = relative(repo, file).split(sep).join("/");
    if (GENERATED.has(rel)) continue;
    const lines = lineCount(readFileSync(file, "utf8"));
    if (lines > LINE_LIMIT) long.push({ file: rel, lines });
  }
  return long;
}

/** Pairs of folders of one root that import each other, each with one import either way. */
function foldersImportingEachOther(rootDir, files, self) {
  /** "a\0b" -> the first import seen from folder a into folder b. */
  const edges = new Map();
  for (const file of files) {
    const from = folderOf(rootDir, file);
    for (const { spec, line } of specifiers(readFileSync(file, "utf8"))) {
      const path = target(file, spec, self);
      const to = path === undefined ? undefined : folderOf(rootDir, path);
      if (to === undefined || to === from) continue;
      const key = `${from}\0${to}`;
      if (!edges.has(key)) {
        edges.set(key, `${relative(repo, file).split(sep).join("/")}:${line} imports "${spec}"`);
      }
    }
  }
  const pairs = [];
  for (const [key, example] of edges) {
    const [a, b] = key.split("\0");
    const back = edges.get(`${b}\0${a}`);
    if (a < b && back !== undefined) pairs.push({ a, b, there: example, back });
  }
  return pairs.sort((x, y) => `${x.a}/${x.b}`.localeCompare(`${y.a}/${y.b}`));
}

let broken = 0;
for (const root of sourceRoots()) {
  const rootDir = join(repo, root.dir);
  const files = sourceFiles(rootDir);
  for (const { file, lines } of longFiles(files)) {
    console.log(`line limit: ${file} has ${lines} lines (at most ${LINE_LIMIT})`);
    broken++;
  }
  for (const { a, b, there, back } of foldersImportingEachOther(
    rootDir,
    files,
    selfExports(root.pkg),
  )) {
    console.log(`folder rule: ${root.dir}: ${a} and ${b} import each other`);
    console.log(`  ${a} -> ${b}: ${there}`);
    console.log(`  ${b} -> ${a}: ${back}`);
    broken++;
  }
}
if (broken > 0) {
  console.log(
    `${broken} house rule${broken === 1 ? "" : "s"} broken (see docs/architecture.md, "House rules")`,
  );
  process.exit(1);
}
console.log("house rules hold: no source file over 450 lines, no two folders importing each other");
