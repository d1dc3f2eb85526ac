/** The output of `git diff -z -M --raw --numstat` as the changes API's `FileChange`s. */
import type { FileChange, FileChangeStatus } from "@pi-kit/protocol/bridge";

const STATUS: Readonly<Record<string, FileChangeStatus>> = {
  A: "added",
  M: "modified",
  T: "modified",
  D: "deleted",
  R: "renamed",
};

/** The changes `git diff -z -M --raw --numstat` printed, sorted by path. */
export function parseRawNumstat(output: string): FileChange[] {
  const fields = output.split("\0");
  const entries: Array<{ path: string; oldPath?: string; status: FileChangeStatus }> = [];
  const counts = new Map<string, { additions: number; deletions: number; binary: boolean }>();
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i] as string;
    if (field === "") continue;
    if (field.startsWith(":")) {
      // ":100644 100644 <old> <new> R100", then the path (a rename: old, then new).
      const code = field.slice(field.lastIndexOf(" ") + 1);
      const status = STATUS[code[0] as string] ?? "modified";
      const oldPath = status === "renamed" ? (fields[++i] as string) : undefined;
      const path = fields[++i] as string;
      entries.push({ path, ...(oldPath === undefined ? {} : { oldPath }), status });
      continue;
    }
    const [added, deleted, inline] = field.split("\t") as [string, string, string];
    let path = inline;
    if (inline === "") {
      // A rename's paths follow as two fields of their own: old, then new.
      i += 2;
      path = fields[i] as string;
    }
    const binary = added === "-";
    counts.set(path, {
      additions: binary ? 0 : Number(added),
      deletions: binary ? 0 : Number(deleted),
      binary,
    });
  }
  return sortByPath(
    entries.map((entry) => ({
      ...entry,
      ...(counts.get(entry.path) ?? { additions: 0, deletions: 0, binary: false }),
    })),
  );
}

/** `changes` sorted by path (code unit order, as git sorts). */
export function sortByPath(changes: FileChange[]): FileChange[] {
  return changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
