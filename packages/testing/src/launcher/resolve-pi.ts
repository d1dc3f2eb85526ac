/**
 * Locates the installed pi CLIs of the test matrix: the two lines (`@earendil-works` 1.x and
 * `@mariozechner` 0.73.1) and the older `@earendil-works` releases installed under npm aliases.
 * @module
 */

import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ensurePinnedRelease, pinnedReleaseFolder } from "./pinned-pi.ts";
import { findInNodeModules, searchRoots } from "./runtime.ts";

/**
 * Which pi to launch: `"1"` is the newest pi 1.x installed, `"0.73"` pi 0.73.1; `"0.87"` (0.87.1)
 * and `"1.0"` (1.0.3) are the releases between them that the live matrix also covers.
 */
export type PiVersion = "1" | "0.73" | "0.87" | "1.0";

/** One pi of the matrix: where it is installed and what runs it. */
export interface PiRelease {
  /** The directory under `node_modules`: the package name, or the npm alias it is installed as. */
  readonly installedAs: string;
  /** What to install when it is missing (`npm i -D <install>`). */
  readonly install: string;
  /** The Node major it needs: 22 (>= 22.19) or 20. */
  readonly node: 20 | 22;
}

/** The pi releases the test kit knows, by {@link PiVersion}. */
export const PI_RELEASES: Readonly<Record<PiVersion, PiRelease>> = {
  "1": {
    installedAs: "@earendil-works/pi-coding-agent",
    install: "@earendil-works/pi-coding-agent@1",
    node: 22,
  },
  "0.73": {
    installedAs: "@mariozechner/pi-coding-agent",
    install: "@mariozechner/pi-coding-agent@0.73.1",
    node: 20,
  },
  "0.87": {
    installedAs: "pi-coding-agent-0.87",
    install: "pi-coding-agent-0.87@npm:@earendil-works/pi-coding-agent@0.87.1",
    node: 22,
  },
  // 1.0.3 declares `@earendil-works/chord@^1.0.3`, which was never published (the last is
  // 0.87.1); its bundle does not load it, so an npm override pins it to 0.87.1.
  "1.0": {
    installedAs: "pi-coding-agent-1.0",
    install: "pi-coding-agent-1.0@npm:@earendil-works/pi-coding-agent@1.0.3",
    node: 22,
  },
};

/** npm package (or alias) of each pi. */
export const PI_PACKAGES: Readonly<Record<PiVersion, string>> = Object.fromEntries(
  Object.entries(PI_RELEASES).map(([version, release]) => [version, release.installedAs]),
) as Record<PiVersion, string>;

/** An installed pi: its CLI entry file and version. */
export interface PiInstall {
  /** Absolute path of the `pi` bin (`dist/bundle/cli.js` from 0.84.3 on, `dist/cli.js` on 0.73). */
  readonly cliPath: string;
  /** `version` from its package.json. */
  readonly version: string;
  /** Package root directory. */
  readonly root: string;
}

interface PackageJson {
  readonly name?: string;
  readonly version?: string;
  readonly bin?: string | Readonly<Record<string, string>>;
}

function readPackage(root: string): PackageJson {
  return JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as PackageJson;
}

/** Whether `dir` is the root of the package installed as `installedAs` (its name, or its alias directory). */
function isRootOf(dir: string, installedAs: string): boolean {
  if (!existsSync(join(dir, "package.json"))) return false;
  return dir.endsWith(join("node_modules", installedAs)) || readPackage(dir).name === installedAs;
}

/** Walks up from a resolved entry file to the package root. */
function packageRootAbove(file: string, installedAs: string): string | undefined {
  let dir = dirname(file);
  for (;;) {
    if (isRootOf(dir, installedAs)) return dir;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * Finds the package root. pi exports no `./package.json`, so resolve the main entry with
 * `import.meta.resolve` and walk up; fall back to scanning `node_modules` directories (runtimes
 * differ in how they resolve bare names from a dependency's source).
 */
function findPackageRoot(installedAs: string): string | undefined {
  try {
    const entry = import.meta.resolve(installedAs);
    if (entry.startsWith("file:")) {
      const root = packageRootAbove(fileURLToPath(entry), installedAs);
      if (root) return root;
    }
  } catch {
    // Not resolvable from here; scan below.
  }
  for (const start of searchRoots()) {
    const root = findInNodeModules(start, installedAs);
    if (root) return root;
  }
  return undefined;
}

/**
 * The root of the release this repository pins for `version` (`pi-releases/pi-<version>`),
 * installed on first use; undefined in a published copy of the kit, which has no such folder.
 */
function pinnedPackageRoot(version: PiVersion): string | undefined {
  const dir = pinnedReleaseFolder(`pi-${version}`);
  if (dir === undefined) return undefined;
  const root = join(ensurePinnedRelease(dir), PI_RELEASES[version].installedAs);
  return existsSync(join(root, "package.json")) ? root : undefined;
}

/**
 * Resolves the pi CLI of `version`: the release pinned next to the kit when there is one (installed
 * on first use), else the one installed in `node_modules`; throws an install hint when it is missing.
 */
export function resolvePi(version: PiVersion): PiInstall {
  const release = PI_RELEASES[version];
  const root = pinnedPackageRoot(version) ?? findPackageRoot(release.installedAs);
  if (!root) {
    throw new Error(
      `Cannot find ${release.installedAs}; install it next to @pi-kit/testing: npm i -D ${release.install}`,
    );
  }
  const pkg = readPackage(root);
  const bin = typeof pkg.bin === "string" ? pkg.bin : pkg.bin?.pi;
  if (!bin) throw new Error(`${release.installedAs} at ${root} has no "pi" bin`);
  return { cliPath: resolve(root, bin), version: pkg.version ?? "unknown", root };
}
