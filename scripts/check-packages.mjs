#!/usr/bin/env node
// Publishing checks for every public package: what a user gets from the registry (LICENSE and
// README in the tarball, links to the source, home page and issues), publint, attw (ESM-only
// profile), and a JSR dry run. `--metadata` runs only the first, quick part.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { deno, root } from "./runtimes.mjs";

/** The one repository every package.json links to. */
const github = "https://github.com/pi-kit/pi-kit";
const repository = { type: "git", url: `git+${github}.git` };

const readJson = (file) => JSON.parse(readFileSync(file, "utf8"));
const packages = readdirSync(join(root, "packages"))
  .map((dir) => join(root, "packages", dir))
  .filter((dir) => !readJson(join(dir, "package.json")).private);

function run(cmd, args, cwd) {
  const result = spawnSync(cmd, args, { cwd, stdio: "inherit", env: process.env });
  if (result.status !== 0) {
    console.error(`failed: ${cmd} ${args.join(" ")} in ${cwd}`);
    process.exit(1);
  }
}

/** The paths `npm pack` would put in the tarball of the package in `dir`. */
function packedFiles(dir) {
  const result = spawnSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: dir,
    encoding: "utf8",
    env: process.env,
  });
  if (result.status !== 0) {
    throw new Error(`npm pack --dry-run failed in ${dir}:\n${result.stderr}`);
  }
  return new Set(JSON.parse(result.stdout)[0].files.map((file) => file.path));
}

/** What is missing from the package in `dir` as a user finds it on the registry. */
function metadataProblems(dir) {
  const problems = [];
  const pkg = readJson(join(dir, "package.json"));
  const directory = dir.slice(root.length + 1);
  const packed = packedFiles(dir);
  for (const file of ["LICENSE", "README.md"]) {
    if (!packed.has(file)) problems.push(`${file} is not in the packed tarball`);
  }
  const license = join(dir, "LICENSE");
  if (existsSync(license) && readFileSync(license, "utf8") !== rootLicense) {
    problems.push("LICENSE is not a copy of the root LICENSE");
  }
  if (pkg.repository?.type !== repository.type || pkg.repository?.url !== repository.url) {
    problems.push(`repository is not { type: "git", url: "${repository.url}", ... }`);
  }
  if (pkg.repository?.directory !== directory) {
    problems.push(`repository.directory is not "${directory}"`);
  }
  if (pkg.homepage !== `${github}/tree/main/${directory}#readme`) {
    problems.push(`homepage is not ${github}/tree/main/${directory}#readme`);
  }
  if (pkg.bugs?.url !== `${github}/issues`) problems.push(`bugs.url is not ${github}/issues`);
  return problems;
}

const rootLicense = readFileSync(join(root, "LICENSE"), "utf8");
let failed = readJson(join(root, "package.json")).repository?.url !== repository.url;
if (failed) console.error(`package.json: repository.url is not ${repository.url}`);
for (const dir of packages) {
  for (const problem of metadataProblems(dir)) {
    console.error(`${dir.slice(root.length + 1)}/package.json: ${problem}`);
    failed = true;
  }
}
if (failed) process.exit(1);
console.log(`${packages.length} packages ship LICENSE and README and link to ${github}`);
if (process.argv.includes("--metadata")) process.exit(0);

for (const dir of packages) {
  console.log(`\n--- ${dir.slice(root.length + 1)}`);
  run("npx", ["publint", "--strict"], dir);
  run("npx", ["attw", "--pack", ".", "--profile", "esm-only"], dir);
}
// Deno-only example files are left out of tsc (no Deno globals there); Deno checks them.
run(deno, ["check", "packages/client/examples/deno.ts"], root);
// One workspace-wide dry run, as JSR would publish them together.
run(deno, ["publish", "--dry-run", "--allow-dirty"], root);
