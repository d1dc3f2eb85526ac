import type { PiClient, SessionFork, SessionModel } from "@pi-kit/client";
import type { SessionEntry, SessionTreeNode } from "@pi-kit/protocol";
import { html, LitElement, nothing, type PropertyValues } from "lit";
import { PiForkedEvent } from "../../events/pi-forked.ts";
import { PiTreeSelectEvent } from "../../events/pi-tree-select.ts";
import { busyTask } from "../../internal/busy-task.ts";
import { confirmBar, focusConfirmBar } from "../../internal/confirm-bar.ts";
import {
  ConnectionController,
  refreshOnChanges,
} from "../../internal/controllers/connection-controller.ts";
import { LocaleController } from "../../internal/controllers/locale-controller.ts";
import { forkBadgeStyles } from "../../internal/fork-title.ts";
import { format } from "../../internal/i18n/format.ts";
import type { PiStrings } from "../../internal/i18n/i18n.ts";
import { type PiSessionStrings, sessionStringsFor } from "../../internal/i18n/session-strings.ts";
import { moveIndex } from "../../internal/list-navigation.ts";
import { scrollWithin } from "../../internal/scroll-within.ts";
import { confirmStyles } from "../../styles/confirm.ts";
import { listStyles } from "../../styles/list.ts";
import { baseStyles } from "../../styles/shared.ts";
import { tokenStyles } from "../../styles/tokens.ts";
import { entryLabel } from "./entry-label.ts";
import { isInternalEntry, withoutEntries } from "./internal-entries.ts";
import { treeStyles } from "./pi-session-tree.styles.ts";
import { flattenTree, type TreeRow, visibleRows } from "./tree-rows.ts";
import { treeVersions } from "./tree-versions.ts";

/**
 * The session's entry tree from `get_tree` (pi 1.x): every message, model and thinking change,
 * compaction and label, with its branches. A long linear history is one flat run of rows (pi
 * sends it nested thousands deep, so it is flattened without recursion); only branch points
 * indent. The current leaf is marked. Reloads after each run and each session change.
 *
 * A fork is a new session file whose tree holds only what it copied: given the conversation's
 * `forks` (`SessionSummary.forks` from the history), the tree lists its other versions below,
 * and choosing one switches pi to that file (`switchSession`).
 *
 * Keyboard: ↑ ↓ Home End PageUp PageDown move; → expands or enters a branch; ← collapses or goes
 * to the parent; Enter or Space chooses the entry (`pi-tree-select`).
 *
 * @tagname pi-session-tree
 * @summary Session tree.
 * @event pi-tree-select - An entry was chosen. {@link PiTreeSelectEvent}
 * @event pi-error - Loading, branching or switching failed (`action` is `load-tree`, `fork` or `switch-version`).
 * @csspart tree - The tree.
 * @csspart item - One entry row.
 * @csspart toggle - The expand / collapse arrow of a branch.
 * @csspart kind - The entry's kind or author.
 * @csspart text - The entry's summary.
 * @csspart label - A user label on the entry.
 * @csspart empty - Shown when there is no tree (or pi 0.73.x).
 * @csspart versions - The conversation's other versions (its other session files).
 * @csspart version-button - Switches pi to one of them.
 * @csspart fork-badge - The "fork" badge after a fork's title.
 * @cssproperty [--max-height=24rem] - Height before the tree scrolls.
 * @cssproperty [--indent=1.1em] - Indent per level.
 */
export class PiSessionTree extends LitElement {
  static override styles = [
    tokenStyles,
    baseStyles,
    listStyles,
    confirmStyles,
    forkBadgeStyles,
    treeStyles,
  ];
  static override properties = {
    client: { attribute: false },
    session: { attribute: false },
    tree: { attribute: false },
    forks: { attribute: false },
    leafId: { attribute: "leaf-id" },
    strings: { attribute: false },
    theme: { type: String, reflect: true },
    showInternal: { type: Boolean, attribute: "show-internal" },
    noConfirm: { type: Boolean, attribute: "no-confirm" },
    busy: { state: true },
    unsupported: { state: true },
    confirming: { state: true },
    note: { state: true },
  };

  /** The client to ask. */
  declare client: PiClient | undefined;
  /** Unused without a client; accepted so the element fits a provider. */
  declare session: SessionModel | undefined;
  /** The tree to show; loaded from the client when there is one. */
  declare tree: readonly SessionTreeNode[] | undefined;
  /** The conversation's session files (`SessionSummary.forks`): the others are listed below the tree. */
  declare forks: readonly SessionFork[] | undefined;
  /** The current leaf entry (marked). */
  declare leafId: string | null | undefined;
  /** Overrides for the built-in strings of the resolved language. */
  declare strings: Partial<PiStrings & PiSessionStrings> | undefined;
  /** `light`, `dark`, or `auto` / unset to follow `prefers-color-scheme`. */
  declare theme: "light" | "dark" | "auto" | undefined;
  /** Shows pi's bookkeeping entries (model and thinking changes, system-prompt updates), hidden by default. */
  declare showInternal: boolean;
  /** Branches at once when an entry is chosen, without asking first. */
  declare noConfirm: boolean;
  declare busy: boolean;
  declare unsupported: boolean;
  declare confirming: ForkPlan | undefined;
  declare note: string | undefined;

  readonly #refreshOnChanges = refreshOnChanges(() => void this.refresh());
  readonly #connection = new ConnectionController(this, {
    changed: (next, previous) => {
      this.#offMoved?.();
      // Registered before the refresh's own listener, so the flag is up when the tree comes.
      this.#offMoved = next?.client?.on("session_changed", ({ reason }) => {
        if (reason !== "reconnect") this.#moved = true;
      });
      this.#refreshOnChanges(next, previous);
    },
  });
  #offMoved: (() => void) | undefined;
  /** pi moved to another session file (a fork, another version): the highlight follows it. */
  #moved = false;
  /** Collapsed rows and the active row, by entry id so they survive a reload. */
  readonly #collapsed = new Set<string>();
  #activeId: string | undefined;
  #rows: TreeRow[] = [];
  #visible: number[] = [];
  /** The current leaf as shown: a hidden leaf is stood in for by the nearest entry above it. */
  #currentId: string | null | undefined;
  #standIns: ReadonlyMap<string, string | null> = new Map();
  #scrollPending = true;
  #focusPending: "confirm" | "tree" | undefined;
  readonly #locale = new LocaleController(this, sessionStringsFor);

  /** The first render in a language whose table still loads waits for it (no flash of English). */
  protected override scheduleUpdate(): Promise<unknown> | undefined {
    return this.#locale.schedule(() => super.scheduleUpdate());
  }

  constructor() {
    super();
    this.busy = false;
    this.unsupported = false;
    this.showInternal = false;
    this.noConfirm = false;
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

  /**
   * Chooses an entry, as Enter or a click does: fires `pi-tree-select`, then (with a client, unless
   * cancelled) asks whether to branch there and branches.
   */
  choose(node: SessionTreeNode): void {
    this.note = undefined;
    if (!this.dispatchEvent(new PiTreeSelectEvent(node))) return;
    if (this.#connection.client === undefined) return;
    const plan = forkPlan(node, this.#currentId);
    const s = this.#locale.strings;
    if (plan.kind === "here") this.note = s.treeHere;
    else if (plan.kind === "none") this.note = s.treeCannotFork;
    else if (this.noConfirm) void this.#fork(plan);
    else {
      this.confirming = plan;
      this.#focusPending = "confirm";
    }
  }

  override focus(options?: FocusOptions): void {
    this.renderRoot.querySelector<HTMLElement>('[role="tree"]')?.focus(options);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    this.#connection.resolve();
    if (changed.has("tree") || changed.has("showInternal")) {
      const { roots, standIns } = this.showInternal
        ? { roots: this.tree ?? [], standIns: new Map<string, string | null>() }
        : withoutEntries(this.tree ?? [], isInternalEntry);
      this.#rows = flattenTree(roots);
      this.#standIns = standIns;
      // A question about the old tree does not apply to the new one.
      if (changed.has("tree")) this.confirming = undefined;
    }
    if (changed.has("tree") || changed.has("leafId") || changed.has("showInternal")) {
      const leaf = this.leafId;
      this.#currentId = leaf != null && this.#standIns.has(leaf) ? this.#standIns.get(leaf) : leaf;
      const ids = new Set(this.#rows.map((r) => r.node.entry.id));
      for (const id of this.#collapsed) if (!ids.has(id)) this.#collapsed.delete(id);
      // Another file's tree shares entry ids with this one (a fork copies them): the highlight
      // goes to where that file's conversation is, not to the same entry.
      if (changed.has("tree") && this.#moved) {
        this.#moved = false;
        this.#activeId = undefined;
      }
      if (this.#activeId === undefined || !ids.has(this.#activeId)) {
        this.#activeId = this.#currentId ?? this.#rows[this.#rows.length - 1]?.node.entry.id;
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
    const toggle =
      (this.tree?.length ?? 0) > 0
        ? html`<label part="internal-toggle" class="internal-toggle">
            <input
              type="checkbox"
              .checked=${this.showInternal}
              @change=${(e: Event) => {
                this.showInternal = (e.target as HTMLInputElement).checked;
              }}
            />${s.treeShowInternal}
          </label>`
        : nothing;
    const versions = treeVersions(this.forks, s, (fork) => void this.#switchTo(fork), this.busy);
    if (this.#rows.length === 0) {
      const text = this.unsupported ? s.treeUnsupported : this.busy ? s.loading : s.treeEmpty;
      return html`${toggle}<p part="empty" class="empty" role="status">${text}</p>${versions}`;
    }
    return html`${toggle}${this.#tree()}${this.#question()}
      <p part="note" class="note" role="status">${this.note ?? ""}</p>${versions}`;
  }

  #question(): unknown {
    const plan = this.confirming;
    if (plan === undefined || plan.kind === "here" || plan.kind === "none") return nothing;
    const s = this.#locale.strings;
    const text =
      plan.kind === "before"
        ? format(s.treeForkBefore, { text: entryLabel(plan.target, s).text })
        : s.treeForkAfter;
    return confirmBar({
      text,
      confirm: s.treeForkAction,
      cancel: s.dialogCancel,
      onConfirm: () => {
        this.confirming = undefined;
        this.#focusPending = "tree";
        void this.#fork(plan);
      },
      onCancel: () => {
        this.confirming = undefined;
        this.#focusPending = "tree";
      },
    });
  }

  async #fork(plan: ForkPlan): Promise<void> {
    const client = this.#connection.client;
    if (client === undefined || (plan.kind !== "before" && plan.kind !== "after")) return;
    const id = plan.target.id;
    await busyTask(this, "fork", async () => {
      // pi starts the new session; the client shows it and says so (session_changed), and the
      // tree reloads on that.
      const result = await client.fork(id);
      this.dispatchEvent(new PiForkedEvent(id, result.text, result.cancelled));
    });
  }

  /** Switches pi to another file of the conversation; the tree reloads on `session_changed`. */
  async #switchTo(fork: SessionFork): Promise<void> {
    const client = this.#connection.client;
    if (client === undefined) return;
    await busyTask(this, "switch-version", async () => {
      await client.switchSession(fork.file);
    });
  }

  #tree(): unknown {
    const s = this.#locale.strings;
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
    const focus = this.#focusPending;
    this.#focusPending = undefined;
    if (focus === "confirm") focusConfirmBar(this.renderRoot);
    else if (focus === "tree") this.focus();
    if (!this.#scrollPending) return;
    this.#scrollPending = false;
    const active = this.#activeRow();
    const row = active === undefined ? null : this.renderRoot.querySelector(`#row-${active}`);
    const tree = this.renderRoot.querySelector('[role="tree"]');
    if (row !== null && tree !== null) scrollWithin(tree, row);
  }

  #row(index: number, active: boolean): unknown {
    const row = this.#rows[index] as TreeRow;
    const s = this.#locale.strings;
    const { kind, text } = entryLabel(row.node.entry, s);
    const expanded = row.expandable ? !this.#collapsed.has(row.node.entry.id) : undefined;
    const current = row.node.entry.id === this.#currentId;
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
    if (row.node.entry.id !== this.#activeId) this.note = undefined;
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
    else this.choose(row.node);
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
        this.choose(row.node);
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

/** What choosing an entry can do in pi: branch before a message you wrote, or right after an entry. */
type ForkPlan =
  | { readonly kind: "before" | "after"; readonly target: SessionEntry }
  | { readonly kind: "here" | "none" };

const isUserMessage = (entry: SessionEntry): boolean =>
  entry.type === "message" && entry.message.role === "user";

/**
 * pi's RPC can only start a session before one of the user's messages (`fork`). A user message is
 * branched before; any other entry with a user message right after it is continued from (a fork
 * at that message leaves the chosen entry last); the current leaf is where the conversation
 * already is; anything else cannot be reached.
 */
function forkPlan(node: SessionTreeNode, currentId: string | null | undefined): ForkPlan {
  if (isUserMessage(node.entry)) return { kind: "before", target: node.entry };
  const next = node.children.find((child) => isUserMessage(child.entry));
  if (next !== undefined) return { kind: "after", target: next.entry };
  return node.entry.id === currentId ? { kind: "here" } : { kind: "none" };
}

declare global {
  interface HTMLElementTagNameMap {
    "pi-session-tree": PiSessionTree;
  }
}
