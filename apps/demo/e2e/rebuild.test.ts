/**
 * Builds that recover from a deleted `dist/`: every package keeps its TypeScript build info
 * inside its output folder, so deleting `dist/` also forgets what was built, and the next build
 * emits everything again (build info left beside a deleted `dist/` made `tsc -b` emit nothing,
 * and turbo then cached the empty output).
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const packages = readdirSync(join(root, "packages"));

test("every package's build info lies inside its output folder, and turbo caches no other", () => {
  for (const name of packages) {
    const dir = join(root, "packages", name);
    const config = JSON.parse(readFileSync(join(dir, "tsconfig.json"), "utf8"));
    const { outDir, tsBuildInfoFile } = config.compilerOptions as Record<string, string>;
    assert.ok(
      tsBuildInfoFile?.startsWith(`${outDir}/`),
      `packages/${name}: tsBuildInfoFile ${tsBuildInfoFile} is not inside ${outDir}`,
    );
    for (const turbo of [join(root, "turbo.json"), join(dir, "turbo.json")].filter(existsSync)) {
      const outputs: string[] = JSON.parse(readFileSync(turbo, "utf8")).tasks?.build?.outputs ?? [];
      const stray = outputs.filter((output) => output.includes("tsbuildinfo"));
      assert.deepEqual(stray, [], `${turbo}: build info outside ${outDir}`);
    }
  }
});

test("a package whose dist/ was deleted builds again in full", async () => {
  // A copy of the protocol package (no dependencies), so the repository's own dist/ is untouched.
  const copy = mkdtempSync(join(tmpdir(), "pi-kit-rebuild-"));
  cpSync(join(root, "tsconfig.base.json"), join(copy, "tsconfig.base.json"));
  const pkg = join(copy, "packages", "protocol");
  for (const entry of ["src", "tsconfig.json", "package.json"]) {
    cpSync(join(root, "packages", "protocol", entry), join(pkg, entry), { recursive: true });
  }
  const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
  const build = () => promisify(execFile)(process.execPath, [tsc, "-b"], { cwd: pkg });
  try {
    await build();
    assert.ok(existsSync(join(pkg, "dist", "index.js")));
    rmSync(join(pkg, "dist"), { recursive: true });
    await build();
    assert.ok(existsSync(join(pkg, "dist", "index.js")), "the second build emitted index.js");
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
});
