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
  /**
   * Whether no pattern holds a `/` but a trailing one, so each matches a name at any depth and
   * testing the name alone says the same as testing the path, and costs far less: `ignore` tests
   * every parent of a path and caches each path it saw, which on a large tree dwarfs the walk.
   */
  readonly byName: boolean;
}

/** The `.gitignore` files that apply in one directory, the shallowest first. */
export type IgnoreChain = readonly IgnoreFile[];

/** The chain of a directory whose `.gitignore` (at `dir`, `""` for the root) has `text`. */
export function extendChain(chain: IgnoreChain, dir: string, text: string): IgnoreChain {
  const base = dir === "" ? "" : `${dir}/`;
  const rules = ignore({ allowRelativePaths: true }).add(text);
  return [...chain, { base, rules, byName: text.split(/\r?\n/).every(matchesByName) }];
}

/**
 * Whether entry `name` of directory `dir` (relative to the workspace, `""` for the root; the entry
 * is a directory when `directory`) is ignored. `dir` must not be: the walk never enters one that is.
 */
export function isIgnored(
  chain: IgnoreChain,
  dir: string,
  name: string,
  directory: boolean,
): boolean {
  let ignored = false;
  for (const { base, rules, byName } of chain) {
    const relative = byName ? name : (dir === "" ? name : `${dir}/${name}`).slice(base.length);
    const result = rules.test(directory ? `${relative}/` : relative);
    if (result.ignored) ignored = true;
    else if (result.unignored) ignored = false;
  }
  return ignored;
}

/** Whether a `.gitignore` line is a comment, blank, or a pattern without a `/` but a trailing one. */
function matchesByName(line: string): boolean {
  const slash = line.indexOf("/");
  return slash < 0 || line.startsWith("#") || slash === line.trimEnd().length - 1;
}
