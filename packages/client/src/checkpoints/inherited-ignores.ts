/**
 * The `.gitignore` rules a workspace inherits from the directories above it, when it lies inside a
 * git repository (pi working in `repo/packages/app`): the shadow repository's work tree starts at
 * the workspace, so git would not read them, and a checkpoint would take in the `node_modules/`
 * or `dist/` the repository's root `.gitignore` leaves out. Only the `.gitignore` files are read,
 * never the repository's `.git`.
 */
import { readFile, stat } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import { segmentMatches } from "./wildmatch.ts";

/**
 * The exclude-file lines for `workspace` from the `.gitignore` files of the directories above it
 * up to its repository's root (shallowest first, so deeper rules win); none outside a repository.
 */
export async function inheritedIgnores(workspace: string): Promise<string> {
  const files: Array<{ dir: string; text: string }> = [];
  let dir = dirname(workspace);
  let inRepository = await exists(join(workspace, ".git"));
  while (!inRepository) {
    const text = await readFile(join(dir, ".gitignore"), "utf8").catch(() => undefined);
    if (text !== undefined) files.unshift({ dir, text });
    if (await exists(join(dir, ".git"))) inRepository = true;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  if (!inRepository) return "";
  return files
    .map(({ dir, text }) => rebaseIgnores(text, relative(dir, workspace).split(sep).join("/")))
    .join("");
}

/**
 * The rules of a `.gitignore` as seen from its subdirectory `sub` (`/`-separated), as git applies
 * them to the files under `sub`: rules that match at any depth stay as they are; a rule anchored
 * to the `.gitignore`'s directory (it has a `/` but at its end) has its leading segments matched
 * against `sub`'s (wildcards, `**` over any number of them) and what is left re-anchored to
 * `sub`, one line per way to match; rules that cannot match under `sub` go. A rule that matches
 * `sub` itself or a directory above it is not inherited: it would leave the whole workspace out.
 */
export function rebaseIgnores(text: string, sub: string): string {
  const subSegments = sub.split("/");
  let out = "";
  for (const raw of text.split(/\r?\n/)) {
    // git drops trailing spaces unless the last is escaped with a backslash.
    const line = raw.replace(/(?<!\\) +$/, "");
    if (line === "" || line.startsWith("#")) continue;
    const negated = line.startsWith("!");
    const body = negated ? line.slice(1) : line;
    const dirOnly = body.endsWith("/");
    const pattern = dirOnly ? body.slice(0, -1) : body;
    if (pattern === "") continue;
    // No `/` (but a leading `**/`): it matches at any depth, under `sub` as anywhere.
    if (!pattern.replace(/^\*\*\//, "").includes("/")) {
      out += `${line}\n`;
      continue;
    }
    const segments = pattern.replace(/^\//, "").split("/");
    for (const rest of remainders(segments, subSegments))
      out += `${negated ? "!" : ""}/${rest.join("/")}${dirOnly ? "/" : ""}\n`;
  }
  return out;
}

/**
 * The ways `segments` (a pattern's) can match a path that starts with `prefix`: the pattern
 * segments left after matching all of `prefix`, each way once (none left: it matched `prefix`
 * or a directory above it, which is not returned).
 */
function remainders(segments: readonly string[], prefix: readonly string[]): string[][] {
  // The positions in `segments` reachable after each prefix segment (an NFA over `**`).
  let states = new Set([0]);
  const closure = (set: Set<number>): Set<number> => {
    for (const i of set) if (segments[i] === "**") set.add(i + 1);
    return set;
  };
  states = closure(states);
  for (const name of prefix) {
    const next = new Set<number>();
    for (const i of states) {
      const segment = segments[i];
      if (segment === undefined) continue;
      if (segment === "**") next.add(i);
      else if (segmentMatches(segment, name)) next.add(i + 1);
    }
    states = closure(next);
    if (states.size === 0) return [];
  }
  const out: string[][] = [];
  for (const i of [...states].sort((a, b) => a - b)) {
    const rest = segments.slice(i);
    if (rest.length > 0) out.push(rest);
  }
  return out;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
