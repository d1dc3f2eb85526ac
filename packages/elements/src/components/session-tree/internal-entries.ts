import type { SessionEntry, SessionTreeNode } from "@pi-kit/protocol";

/** Entry types a reader of the tree cares about; any other type (a newer pi's bookkeeping) is internal. */
const READABLE = new Set([
  "message",
  "compaction",
  "branch_summary",
  "label",
  "session_info",
  "custom_message",
]);

/**
 * pi's bookkeeping in the tree: model and thinking-level changes, system-prompt updates, extension
 * state, and entry types this version does not know.
 */
export function isInternalEntry(entry: SessionEntry): boolean {
  if (!READABLE.has(entry.type)) return true;
  return entry.type === "message" && entry.message.role === "system";
}

/** The tree without some entries: each one's children take its place under its parent. */
export interface FilteredTree {
  readonly roots: SessionTreeNode[];
  /** For each left-out entry, the nearest entry above it that stayed (`null` at the top). */
  readonly standIns: ReadonlyMap<string, string | null>;
}

/**
 * Leaves out the entries `hide` picks, without recursion (pi nests a long session thousands of
 * levels deep). Kept nodes are copies; the input is not changed.
 */
export function withoutEntries(
  roots: readonly SessionTreeNode[],
  hide: (entry: SessionEntry) => boolean,
): FilteredTree {
  const out: SessionTreeNode[] = [];
  const standIns = new Map<string, string | null>();
  // Each item: a node, the list its copy goes into, and the id of the nearest kept ancestor.
  const stack: [SessionTreeNode, SessionTreeNode[], string | null][] = [];
  const push = (
    nodes: readonly SessionTreeNode[],
    into: SessionTreeNode[],
    above: string | null,
  ) => {
    for (let i = nodes.length - 1; i >= 0; i--)
      stack.push([nodes[i] as SessionTreeNode, into, above]);
  };
  push(roots, out, null);
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const [node, into, above] = item;
    if (hide(node.entry)) {
      standIns.set(node.entry.id, above);
      push(node.children, into, above);
      continue;
    }
    const children: SessionTreeNode[] = [];
    into.push({ ...node, children });
    push(node.children, children, node.entry.id);
  }
  return { roots: out, standIns };
}
