/**
 * `.gitignore` rules of a directory tree, with git's precedence: a deeper file's rule (including a
 * `!` negation) overrides a shallower one's, and each file's patterns are relative to its directory.
 * Matching is the `ignore` package's, which follows the gitignore spec; an ignored directory is
 * never entered, so nothing under it can be re-included (as in git).
 * @module
 */
import ignoreModule, { type Ignore } from "ignore";

// A CommonJS module typed `export default`: its `default` is the factory (and is set at run time).
const ignore = ignoreModule.default;

/** One directory's `.gitignore`: its patterns and where they are relative to. */
interface IgnoreFile {
  /** The directory's path relative to the workspace, `""` for the root, else ending in `/`. */
  readonly base: string;
  readonly rules: Ignore;
}

/** The `.gitignore` files that apply in one directory, the shallowest first. */
export type IgnoreChain = readonly IgnoreFile[];

/** The chain of a directory whose `.gitignore` (at `dir`, `""` for the root) has `text`. */
export function extendChain(chain: IgnoreChain, dir: string, text: string): IgnoreChain {
  const base = dir === "" ? "" : `${dir}/`;
  return [...chain, { base, rules: ignore({ allowRelativePaths: true }).add(text) }];
}

/** Whether `path` (relative to the workspace; a directory when `directory`) is ignored. */
export function isIgnored(chain: IgnoreChain, path: string, directory: boolean): boolean {
  let ignored = false;
  for (const { base, rules } of chain) {
    const relative = path.slice(base.length);
    const result = rules.test(directory ? `${relative}/` : relative);
    if (result.ignored) ignored = true;
    else if (result.unignored) ignored = false;
  }
  return ignored;
}
