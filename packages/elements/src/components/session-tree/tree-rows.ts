import type { SessionTreeNode } from "@pi-kit/protocol";

/** One visible-or-hidden row of the flattened tree. */
export interface TreeRow {
  readonly node: SessionTreeNode;
  /** `aria-level`, from 1. */
  readonly level: number;
  /** Index of the row this one belongs under, or -1 at the top. */
  readonly parent: number;
  /** True when the row has rows under it (a branch point or a branch head). */
  readonly expandable: boolean;
  /** `aria-posinset` / `aria-setsize` among the rows sharing its parent. */
  posinset: number;
  setsize: number;
}

interface Work {
  readonly node: SessionTreeNode;
  readonly level: number;
  readonly parent: number;
  /** Starts a branch: its continuation goes one level below it. */
  readonly head: boolean;
}

/**
 * Flattens pi's entry tree into rows without recursion: `get_tree` returns a long session as one
 * chain nested thousands deep, which would overflow the stack (and indent off the screen). A chain
 * of single children stays at one level; only where the history branches do the branches go one
 * level down, each as a head whose continuation sits one level below it.
 */
export function flattenTree(roots: readonly SessionTreeNode[]): TreeRow[] {
  const rows: TreeRow[] = [];
  const stack: Work[] = [];
  const branch = (nodes: readonly SessionTreeNode[], level: number, parent: number): void => {
    // Pushed in reverse so the first branch comes out first.
    for (let i = nodes.length - 1; i >= 0; i--)
      stack.push({ node: nodes[i] as SessionTreeNode, level, parent, head: true });
  };
  if (roots.length === 1)
    stack.push({ node: roots[0] as SessionTreeNode, level: 1, parent: -1, head: false });
  else branch(roots, 1, -1);
  for (let work = stack.pop(); work !== undefined; work = stack.pop()) {
    let node: SessionTreeNode | undefined = work.node;
    let { level, parent } = work;
    while (node !== undefined) {
      const children: readonly SessionTreeNode[] = node.children;
      const index = rows.length;
      const head = work.head && node === work.node;
      rows.push({
        node,
        level,
        parent,
        expandable: children.length > 1 || (head && children.length > 0),
        posinset: 0,
        setsize: 0,
      });
      if (children.length > 1) {
        branch(children, level + 1, index);
        break;
      }
      if (head) {
        parent = index;
        level += 1;
      }
      node = children[0];
    }
  }
  const sizes = new Map<number, number>();
  for (const row of rows) {
    const size = (sizes.get(row.parent) ?? 0) + 1;
    sizes.set(row.parent, size);
    row.posinset = size;
  }
  for (const row of rows) row.setsize = sizes.get(row.parent) ?? 1;
  return rows;
}

/** Which rows show, given the collapsed row indexes (parents always come before their rows). */
export function visibleRows(rows: readonly TreeRow[], collapsed: ReadonlySet<number>): number[] {
  const hidden = new Uint8Array(rows.length);
  const out: number[] = [];
  rows.forEach((row, index) => {
    const p = row.parent;
    if (p >= 0 && (hidden[p] === 1 || collapsed.has(p))) hidden[index] = 1;
    else out.push(index);
  });
  return out;
}
