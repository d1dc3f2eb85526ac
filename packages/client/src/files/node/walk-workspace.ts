/**
 * Reads one directory of a workspace for the index: which children count (not ignored by
 * `.gitignore`, no hidden directories such as `.git`), and, for a symbolic link, what it is once
 * resolved, kept only when it stays inside the workspace. A linked directory is listed but never
 * entered, so no link leads the walk out of the workspace or round a loop.
 * @module
 */
import type { Dirent } from "node:fs";
import { readdir, readFile, realpath, stat } from "node:fs/promises";
import { sep } from "node:path";
import { extendChain, type IgnoreChain, isIgnored } from "./gitignore-rules.ts";

/** One child of a directory, as the index keeps it. */
export interface ReadEntry {
  /** Its name in its directory. */
  readonly name: string;
  readonly directory: boolean;
  /** Whether the walk should enter it (a real directory, not a link to one). */
  readonly enter: boolean;
}

/** What reading one directory gives: its children and the rules that apply below it. */
export interface ReadDirectory {
  readonly entries: readonly ReadEntry[];
  readonly chain: IgnoreChain;
}

/** The workspace's real root and its prefix, for telling where a link leads. */
export interface WorkspaceRoot {
  /** The root's real path (links resolved). */
  readonly real: string;
}

/**
 * Reads directory `dir` (relative, `""` for the root) of `root`, under the `.gitignore` rules of
 * its parents (`chain`); `undefined` when it cannot be read (gone, or no permission).
 */
export async function readWorkspaceDirectory(
  root: WorkspaceRoot,
  dir: string,
  chain: IgnoreChain,
): Promise<ReadDirectory | undefined> {
  const full = dir === "" ? root.real : `${root.real}${sep}${dir.split("/").join(sep)}`;
  let dirents: Dirent[];
  try {
    // A directory swapped for a link since it was listed must not take the walk out: its real
    // path, resolved alongside the listing (one wait, not two), must be inside the workspace.
    const [real, list] = await Promise.all([
      dir === "" ? root.real : realpath(full),
      readdir(full, { withFileTypes: true }),
    ]);
    if (!inside(root, real)) return undefined;
    dirents = list;
  } catch {
    return undefined;
  }
  let rules = chain;
  if (dirents.some((d) => d.name === ".gitignore" && d.isFile())) {
    const text = await readFile(`${full}${sep}.gitignore`, "utf8").catch(() => "");
    rules = extendChain(chain, dir, text);
  }
  const entries: ReadEntry[] = [];
  const links: Promise<ReadEntry | undefined>[] = [];
  for (const dirent of dirents) {
    const name = dirent.name;
    if (dirent.isDirectory()) {
      // Hidden directories (`.git`, `.cache`, `.pi-kit`) are never offered; hidden files are.
      if (name.startsWith(".") || isIgnored(rules, dir, name, true)) continue;
      entries.push({ name, directory: true, enter: true });
    } else if (dirent.isFile()) {
      if (!isIgnored(rules, dir, name, false))
        entries.push({ name, directory: false, enter: false });
    } else if (dirent.isSymbolicLink()) {
      links.push(resolveLink(root, `${full}${sep}${name}`, dir, name, rules));
    }
  }
  for (const link of await Promise.all(links)) if (link !== undefined) entries.push(link);
  return { entries, chain: rules };
}

/** A link that resolves inside the workspace to a file or directory, as an entry; else nothing. */
async function resolveLink(
  root: WorkspaceRoot,
  full: string,
  dir: string,
  name: string,
  rules: IgnoreChain,
): Promise<ReadEntry | undefined> {
  try {
    const target = await realpath(full);
    if (!inside(root, target)) return undefined;
    const info = await stat(target);
    const directory = info.isDirectory();
    if (!directory && !info.isFile()) return undefined;
    if (directory && name.startsWith(".")) return undefined;
    if (isIgnored(rules, dir, name, directory)) return undefined;
    return { name, directory, enter: false };
  } catch {
    return undefined;
  }
}

function inside(root: WorkspaceRoot, real: string): boolean {
  return (
    real === root.real || real.startsWith(root.real.endsWith(sep) ? root.real : root.real + sep)
  );
}
