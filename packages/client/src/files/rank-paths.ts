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
}

/** The ranked slice `[offset, offset + limit)` and how many paths matched in all. */
export interface RankedSlice {
  readonly indexes: readonly number[];
  readonly total: number;
}

const BOUNDARY = new Set(["/", "-", "_", ".", " "]);

/** The score of `lower` (a lower-cased path whose name starts at `name`) for `term`; -1: no match. */
export function scorePath(lower: string, name: number, term: string): number {
  if (term === "") return 0;
  const at = lower.lastIndexOf(term);
  if (at >= 0) {
    let score = 10_000;
    if (at >= name) score += 4_000;
    if (at === name) score += term.length === lower.length - name ? 5_000 : 3_000;
    else if (at === 0 || BOUNDARY.has(lower[at - 1] as string)) score += 1_000;
    return score;
  }
  let found = 0;
  let score = 0;
  let previous = -2;
  for (let i = 0; i < lower.length && found < term.length; i++) {
    if (lower.charCodeAt(i) !== term.charCodeAt(found)) continue;
    score += 10;
    if (i === previous + 1) score += 15;
    if (i === 0 || BOUNDARY.has(lower[i - 1] as string)) score += 20;
    if (i >= name) score += 5;
    previous = i;
    found++;
  }
  return found === term.length ? score : -1;
}

/** The terms of a query: lower-cased, split on whitespace. */
export function queryTerms(query: string): readonly string[] {
  return query.toLowerCase().split(/\s+/).filter(Boolean);
}

/**
 * Ranks `index` for `query` and returns the indexes of the slice `[offset, offset + limit)`.
 * Keeps only the best `offset + limit` while scanning, so a page costs one pass.
 */
export function rankPaths(
  index: RankablePaths,
  query: string,
  offset: number,
  limit: number,
): RankedSlice {
  const terms = queryTerms(query);
  const keep = offset + limit;
  const bestIndex: number[] = [];
  const bestScore: number[] = [];
  let total = 0;
  const { lower, nameStart } = index;
  for (let i = 0; i < lower.length; i++) {
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
    // Shallow and short first: a tie on the match is broken by the path.
    score = score * 4096 - depth(path) * 256 - Math.min(path.length, 255);
    if (
      bestIndex.length === keep &&
      !better(index, i, score, bestIndex[keep - 1] as number, bestScore[keep - 1] as number)
    )
      continue;
    let at = bestIndex.length;
    while (
      at > 0 &&
      better(index, i, score, bestIndex[at - 1] as number, bestScore[at - 1] as number)
    )
      at--;
    bestIndex.splice(at, 0, i);
    bestScore.splice(at, 0, score);
    if (bestIndex.length > keep) {
      bestIndex.pop();
      bestScore.pop();
    }
  }
  return { indexes: bestIndex.slice(offset), total };
}

function better(
  index: RankablePaths,
  a: number,
  scoreA: number,
  b: number,
  scoreB: number,
): boolean {
  if (scoreA !== scoreB) return scoreA > scoreB;
  return (index.paths[a] as string) < (index.paths[b] as string);
}

function depth(path: string): number {
  let count = 0;
  for (let i = 0; i < path.length; i++) if (path.charCodeAt(i) === 47) count++;
  return Math.min(count, 15);
}
