import type { PiClient, SessionModel } from "@pi-kit/client";
import type { SessionEntry, SessionTreeNode } from "@pi-kit/protocol";
import { html, LitElement, nothing, type PropertyValues } from "lit";
import { busyTask } from "../../internal/busy-task.ts";
import { ConnectionController, refreshOnRuns } from "../../internal/connection-controller.ts";
import type { PiStrings } from "../../internal/i18n.ts";
import { moveIndex } from "../../internal/list-navigation.ts";
import { LocaleController } from "../../internal/locale-controller.ts";
import { listStyles } from "../../styles/list.ts";
import { baseStyles } from "../../styles/shared.ts";
import { tokenStyles } from "../../styles/tokens.ts";
import { entryLabel } from "./entry-label.ts";
import { treeStyles } from "./pi-session-tree.styles.ts";
import { flattenTree, type TreeRow, visibleRows } from "./tree-rows.ts";

/** Fired by `<pi-session-tree>` when an entry is chosen (Enter, Space or a click). */
export class PiTreeSelectEvent extends Event {
  /** The chosen entry. */
  readonly entry: SessionEntry;
  /** Its node, with its label and children. */
  readonly node: SessionTreeNode;

  constructor(node: SessionTreeNode) {
    super("pi-tree-select", { bubbles: true, composed: true });
    this.entry = node.entry;
    this.node = node;
  }
}

/**
 * The session's entry tree from `get_tree` (pi 1.x): every message, model and thinking change,
 * compaction and label, with its branches. A long linear history is one flat run of rows (pi
 * sends it nested thousands deep, so it is flattened without recursion); only branch points
 * indent. The current leaf is marked. Reloads after each run.
 *
 * Keyboard: ↑ ↓ Home End PageUp PageDown move; → expands or enters a branch; ← collapses or goes
 * to the parent; Enter or Space chooses the entry (`pi-tree-select`).
 *
 * @tagname pi-session-tree
 * @summary Session tree.
 * @event pi-tree-select - An entry was chosen. {@link PiTreeSelectEvent}
 * @event pi-error - Loading failed (`action` is `load-tree`).
 * @csspart tree - The tree.
 * @csspart item - One entry row.
 * @csspart toggle - The expand / collapse arrow of a branch.
 * @csspart kind - The entry's kind or author.
 * @csspart text - The entry's summary.
 * @csspart label - A user label on the entry.
 * @csspart empty - Shown when there is no tree (or pi 0.73.x).
 * @cssproperty [--max-height=24rem] - Height before the tree scrolls.
 * @cssproperty [--indent=1.1em] - Indent per level.
 */
export class PiSessionTree extends LitElement {
  static override styles = [tokenStyles, baseStyles, listStyles, treeStyles];
  static override properties = {
    client: { attribute: false },
    session: { attribute: false },
    tree: { attribute: false },
    leafId: { attribute: "leaf-id" },
    strings: { attribute: false },
    theme: { type: String, reflect: true },
    busy: { state: true },
    unsupported: { state: true },
  };

  /** The client to ask. */
  declare client: PiClient | undefined;
  /** Unused without a client; accepted so the element fits a provider. */
  declare session: SessionModel | undefined;
  /** The tree to show; loaded from the client when there is one. */
  declare tree: readonly SessionTreeNode[] | undefined;
  /** The current leaf entry (marked). */
  declare leafId: string | null | undefined;
  /** Overrides for the built-in strings of the resolved language. */
  declare strings: Partial<PiStrings> | undefined;
  /** `light`, `dark`, or `auto` / unset to follow `prefers-color-scheme`. */
  declare theme: "light" | "dark" | "auto" | undefined;
  declare busy: boolean;
  declare unsupported: boolean;

  readonly #connection = new ConnectionController(this, {
    changed: refreshOnRuns(() => void this.refresh()),
  });
  /** Collapsed rows and the active row, by entry id so they survive a reload. */
  readonly #collapsed = new Set<string>();
  #activeId: string | undefined;
  #rows: TreeRow[] = [];
  #visible: number[] = [];
  #scrollPending = true;
  readonly #locale = new LocaleController(this);

  constructor() {
    super();
    this.busy = false;
    this.unsupported = false;
  }

  /** Reloads the tree from the client. */
  async refresh(): Promise<void> {
    const client = this.#connection.client;
    if (client === undefined) return;
    if (!client.capabilities.supports("get_tree")) {
      this.unsupported = true;
      return;
    }
    await busyTask(this, "load-tree", async () => {
      const { tree, leafId } = await client.getTree();
      this.tree = tree;
      this.leafId = leafId;
    });
  }

  override focus(options?: FocusOptions): void {
    this.renderRoot.querySelector<HTMLElement>('[role="tree"]')?.focus(options);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    this.#connection.resolve();
    if (changed.has("tree")) this.#rows = flattenTree(this.tree ?? []);
    if (changed.has("tree") || changed.has("leafId")) {
      const ids = new Set(this.#rows.map((r) => r.node.entry.id));
      for (const id of this.#collapsed) if (!ids.has(id)) this.#collapsed.delete(id);
      if (this.#activeId === undefined || !ids.has(this.#activeId)) {
        this.#activeId = this.leafId ?? this.#rows[this.#rows.length - 1]?.node.entry.id;
        this.#scrollPending = true;
      }
    }
    const collapsed = new Set<number>();
    this.#rows.forEach((row, index) => {
      if (this.#collapsed.has(row.node.entry.id)) collapsed.add(index);
    });
    this.#visible = visibleRows(this.#rows, collapsed);
  }

  protected override render(): unknown {
    const s = this.#locale.strings;
    if (this.#rows.length === 0) {
      const text = this.unsupported ? s.treeUnsupported : this.busy ? s.loading : s.treeEmpty;
      return html`<p part="empty" class="empty" role="status">${text}</p>`;
    }
    const active = this.#activeRow();
    return html`<div
      part="tree"
      class="listbox tree"
      role="tree"
      tabindex="0"
      aria-label=${s.treeLabel}
      aria-busy=${this.busy ? "true" : "false"}
      aria-activedescendant=${active === undefined ? nothing : `row-${active}`}
      @keydown=${this.#onKeyDown}
    >
      ${this.#visible.map((index) => this.#row(index, index === active))}
    </div>`;
  }

  protected override updated(): void {
    if (!this.#scrollPending) return;
    this.#scrollPending = false;
    const active = this.#activeRow();
    if (active !== undefined)
      this.renderRoot.querySelector(`#row-${active}`)?.scrollIntoView({ block: "nearest" });
  }

  #row(index: number, active: boolean): unknown {
    const row = this.#rows[index] as TreeRow;
    const s = this.#locale.strings;
    const { kind, text } = entryLabel(row.node.entry, s);
    const expanded = row.expandable ? !this.#collapsed.has(row.node.entry.id) : undefined;
    const current = row.node.entry.id === this.leafId;
    return html`<div
      part="item"
      class="option item"
      id="row-${index}"
      role="treeitem"
      aria-level=${row.level}
      aria-posinset=${row.posinset}
      aria-setsize=${row.setsize}
      aria-expanded=${expanded === undefined ? nothing : String(expanded)}
      aria-selected=${active ? "true" : "false"}
      aria-current=${current ? "true" : nothing}
      style="--level: ${row.level - 1}"
      @click=${(e: MouseEvent) => this.#onClick(e, index)}
    >
      <span part="toggle" class="toggle" aria-hidden="true">${expanded === undefined ? "" : expanded ? "▾" : "▸"}</span>
      ${kind ? html`<span part="kind" class="kind">${kind}</span>` : nothing}
      <span part="text" class="text">${text}</span>
      ${row.node.label ? html`<span part="label" class="tag">${row.node.label}</span>` : nothing}
      ${current ? html`<span class="tag current">${s.treeCurrent}</span>` : nothing}
    </div>`;
  }

  #activeRow(): number | undefined {
    const index = this.#rows.findIndex((r) => r.node.entry.id === this.#activeId);
    if (index < 0) return this.#visible[0];
    // A row hidden by a collapsed ancestor hands the highlight to that ancestor.
    let row = index;
    while (!this.#visible.includes(row) && row >= 0) row = this.#rows[row]?.parent ?? -1;
    return row >= 0 ? row : this.#visible[0];
  }

  #setActive(index: number | undefined): void {
    const row = index === undefined ? undefined : this.#rows[index];
    if (row === undefined) return;
    this.#activeId = row.node.entry.id;
    this.#scrollPending = true;
    this.requestUpdate();
  }

  #toggle(index: number, expand: boolean): void {
    const id = this.#rows[index]?.node.entry.id;
    if (id === undefined) return;
    if (expand) this.#collapsed.delete(id);
    else this.#collapsed.add(id);
    this.requestUpdate();
  }

  #onClick(event: MouseEvent, index: number): void {
    const row = this.#rows[index] as TreeRow;
    this.#setActive(index);
    if (row.expandable && (event.target as HTMLElement).closest(".toggle"))
      this.#toggle(index, this.#collapsed.has(row.node.entry.id));
    else this.dispatchEvent(new PiTreeSelectEvent(row.node));
  }

  #onKeyDown(event: KeyboardEvent): void {
    const active = this.#activeRow();
    if (active === undefined) return;
    const row = this.#rows[active] as TreeRow;
    const position = this.#visible.indexOf(active);
    const expanded = row.expandable && !this.#collapsed.has(row.node.entry.id);
    let handled = true;
    switch (event.key) {
      case "Enter":
      case " ":
        this.dispatchEvent(new PiTreeSelectEvent(row.node));
        break;
      case "ArrowRight":
        if (row.expandable && !expanded) this.#toggle(active, true);
        else if (expanded) this.#setActive(this.#visible[position + 1]);
        break;
      case "ArrowLeft":
        if (expanded) this.#toggle(active, false);
        else if (row.parent >= 0) this.#setActive(row.parent);
        break;
      default: {
        const next = moveIndex(event.key, position, this.#visible.length);
        if (next === undefined) handled = false;
        else this.#setActive(this.#visible[next]);
      }
    }
    if (handled) event.preventDefault();
  }
}

declare global {
  interface HTMLElementTagNameMap {
    "pi-session-tree": PiSessionTree;
  }
  interface GlobalEventHandlersEventMap {
    "pi-tree-select": PiTreeSelectEvent;
  }
}
