import type { SessionEntry, SessionTreeNode } from "@pi-kit/protocol";
import { CANCELABLE_EVENT } from "./event-init.ts";

/**
 * Fired by `<pi-session-tree>` when an entry is chosen (Enter, Space or a click). Cancel it to act
 * yourself; otherwise, with a client, the tree offers to branch there.
 */
export class PiTreeSelectEvent extends Event {
  /** The chosen entry. */
  readonly entry: SessionEntry;
  /** Its node, with its label and children. */
  readonly node: SessionTreeNode;

  constructor(node: SessionTreeNode) {
    super("pi-tree-select", CANCELABLE_EVENT);
    this.entry = node.entry;
    this.node = node;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    "pi-tree-select": PiTreeSelectEvent;
  }
}
