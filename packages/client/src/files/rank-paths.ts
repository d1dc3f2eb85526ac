/**
 * Fuzzy ranking of workspace paths: a substring of the name beats one of the path, which beats a
 * scattered match; word starts and runs of matched characters count; shorter and shallower paths
 * break ties, then the path itself, so pages are stable.
 * @module
 */

/** The paths to rank, kept in parallel arrays so a search allocates little. */
export interface RankablePaths {
  /** `/`-separated relative paths. */
  readonly paths: readonly string[];
  /** The same, lower-cased. */
  readonly lower: readonly string[];
  /** Where each path's last segment (its name) starts. */
  readonly nameStart: readonly number[];
  /** What each path's depth and length take off its score (see {@link pathPenalty}). */
  readonly penalty: readonly number[];
  /** Which letters and digits each lower-cased path has (see {@link charMask}). */
  readonly masks: readonly number[];
}

/** The ranked slice `[offset, offset + limit)` and how many paths matched in all. */
export interface RankedSlice {
  readonly indexes: readonly number[];
  readonly total: number;
}

/** Whether the character code `code` starts a word after it (`/`, `-`, `_`, `.`, space). */
function boundary(code: number): boolean {
  return code === 47 || code === 45 || code === 95 || code === 46 || code === 32;
}

/** Shallow and short first: what a path's depth (its `/`s) and length take off a match's score. */
export function pathPenalty(depth: number, length: number): number {
  return Math.min(depth, 15) * 256 + Math.min(length, 255);
}

/**
 * A bit for each of `a`-`z` and one for any digit that `lower` holds: a path whose mask lacks a
 * bit of a term's cannot match it, which one integer test tells.
 */
export function charMask(lower: string): number {
  let mask = 0;
  for (let i = 0; i < lower.length; i++) {
    const code = lower.charCodeAt(i);
    if (code >= 97 && code <= 122) mask |= 1 << (code - 97);
    else if (code >= 48 && code <= 57) mask |= 1 << 26;
  }
  return mask;
}

/** The score of `lower` (a lower-cased path whose name starts at `name`) for `term`; -1: no match. */
export function scorePath(lower: string, name: number, term: string): number {
  if (term === "") return 0;
  // The first match, or a later one in the name, which counts more (`indexOf` is the fast search).
  let at = lower.indexOf(term);
  if (at >= 0 && at < name) {
    const inName = lower.indexOf(term, name);
    if (inName >= 0) at = inName;
  }
  if (at >= 0) {
    let score = 10_000;
    if (at >= name) score += 4_000;
    if (at === name) score += term.length === lower.length - name ? 5_000 : 3_000;
    else if (at === 0 || boundary(lower.charCodeAt(at - 1))) score += 1_000;
    return score;
  }
  // Most paths do not hold the term's characters in order: `indexOf` says so natively.
  let from = 0;
  for (let k = 0; k < term.length; k++) {
    from = lower.indexOf(term.charAt(k), from) + 1;
    if (from === 0) return -1;
  }
  let found = 0;
  let score = 0;
  let previous = -2;
  for (let i = 0; i < lower.length && found < term.length; i++) {
    if (lower.charCodeAt(i) !== term.charCodeAt(found)) continue;
    score += 10;
    if (i === previous + 1) score += 15;
    if (i === 0 || boundary(lower.charCodeAt(i - 1))) score += 20;
    if (i >= name) score += 5;
    previous = i;
    found++;
  }
  return score;
}

/** The terms of a query: lower-cased, split on whitespace. */
export function queryTerms(query: string): readonly string[] {
  return query.toLowerCase().split(/\s+/).filter(Boolean);
}

/**
 * Ranks `index` for `query` and returns the indexes of the slice `[offset, offset + limit)`.
 * Keeps only the best `offset + limit` while scanning, so a page costs one pass; equal scores
 * keep the index's order, so pages follow each other while the index stays the same.
 */
export function rankPaths(
  index: RankablePaths,
  query: string,
  offset: number,
  limit: number,
): RankedSlice {
  const terms = queryTerms(query);
  let need = 0;
  for (const term of terms) need |= charMask(term);
  const keep = offset + limit;
  const bestIndex: number[] = [];
  const bestScore: number[] = [];
  let total = 0;
  const { lower, nameStart, penalty, masks } = index;
  for (let i = 0; i < lower.length; i++) {
    if (((masks[i] as number) & need) !== need) continue;
    const path = lower[i] as string;
    let score = 0;
    for (const term of terms) {
      const s = scorePath(path, nameStart[i] as number, term);
      if (s < 0) {
        score = -1;
        break;
      }
      score += s;
    }
    if (score < 0) continue;
    total++;
    score = score * 4096 - (penalty[i] as number);
    // Scanned in order, so an equal score never beats one kept before it.
    if (bestIndex.length === keep && score <= (bestScore[keep - 1] as number)) continue;
    let at = bestIndex.length;
    while (at > 0 && score > (bestScore[at - 1] as number)) at--;
    bestIndex.splice(at, 0, i);
    bestScore.splice(at, 0, score);
    if (bestIndex.length > keep) {
      bestIndex.pop();
      bestScore.pop();
    }
  }
  return { indexes: bestIndex.slice(offset), total };
}
