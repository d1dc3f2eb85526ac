/**
 * The `.gitignore` rules a workspace inherits from the directories above it, when it lies inside a
 * git repository (pi working in `repo/packages/app`): the shadow repository's work tree starts at
 * the workspace, so git would not read them, and a checkpoint would take in the `node_modules/`
 * or `dist/` the repository's root `.gitignore` leaves out. Only the `.gitignore` files are read,
 * never the repository's `.git`.
 */
import { readFile, stat } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";

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
 * The rules of a `.gitignore` as seen from its subdirectory `sub` (`/`-separated): rules that
 * match at any depth stay as they are; rules anchored under `sub` are re-anchored to it; the
 * others (anchored elsewhere, or with a pattern in the part that names `sub`) cannot match there.
 */
export function rebaseIgnores(text: string, sub: string): string {
  let out = "";
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/(?<!\\)\s+$/, "");
    if (line === "" || line.startsWith("#")) continue;
    const negated = line.startsWith("!");
    const body = negated ? line.slice(1) : line;
    const dirOnly = body.endsWith("/");
    const pattern = dirOnly ? body.slice(0, -1) : body;
    if (!pattern.includes("/") || pattern.startsWith("**/")) {
      out += `${line}\n`;
      continue;
    }
    const path = pattern.replace(/^\//, "");
    if (!path.startsWith(`${sub}/`)) continue;
    const rest = path.slice(sub.length + 1);
    if (rest === "") continue;
    out += `${negated ? "!" : ""}/${rest}${dirOnly ? "/" : ""}\n`;
  }
  return out;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
