/**
 * `@` mentions as pi's own TUI writes them: `@path` relative to the workspace, `@"path"` when the
 * path has whitespace, and a directory with a trailing `/` (so the next name can follow).
 */
import type { WorkspaceEntry } from "@pi-kit/client";

/** The mention of `entry`; an open quote stays open after a directory, for the name that follows. */
export function mentionText(entry: WorkspaceEntry): string {
  const path = entry.kind === "directory" ? `${entry.path}/` : entry.path;
  if (!/\s/u.test(path)) return `@${path}`;
  return entry.kind === "directory" ? `@"${path}` : `@"${path}"`;
}

/** The `@` token that ends `head` (text before the caret): where it starts and its query. */
export function mentionBefore(head: string): { start: number; query: string } | undefined {
  const match = /(?:^|\s)@(?:"([^"]*)|([^\s"]*))$/u.exec(head);
  if (match === null) return undefined;
  const start = match.index + (match[0].startsWith("@") ? 0 : 1);
  return { start, query: match[1] ?? match[2] ?? "" };
}

/** The paths every complete `@` mention in `text` names, in order. */
export function mentionedPaths(text: string): string[] {
  const paths: string[] = [];
  for (const match of text.matchAll(/(?:^|\s)@(?:"([^"]+)"|([^\s"]+))/gu)) {
    paths.push((match[1] ?? match[2] ?? "").replace(/\/$/, ""));
  }
  return paths;
}
