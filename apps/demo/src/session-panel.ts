/**
 * The session panel beside the chat: the session's figures, what pi changed in the workspace
 * (with revert and undo), the fork picker, the tree of its branches and versions, and whether
 * pi's internal notices show.
 */
import type { SessionSummary, WorkspaceChanges } from "@pi-kit/client";
import type { PiForkedEvent } from "@pi-kit/elements";
import { html } from "lit";
import type { DemoLang, DemoStrings } from "./demo-strings.ts";
import { icons } from "./icons.ts";

/** What the panel shows, and what its controls do. */
export interface PanelState {
  readonly lang: DemoLang;
  readonly strings: DemoStrings;
  /** The open conversation's session files, for the tree to list its other versions. */
  readonly forks: SessionSummary["forks"];
  /** What pi changed in the open conversation's workspace. */
  readonly changes: WorkspaceChanges | undefined;
  readonly internalNotices: boolean;
  /** A branch or fork was made (the message it hands back goes to the composer). */
  readonly forked: (event: PiForkedEvent) => void;
  readonly close: () => void;
  readonly showInternalNotices: (show: boolean) => void;
}

/** The panel. */
export function sessionPanel(view: PanelState): unknown {
  const { lang, strings: t } = view;
  // <pi-changes> is not in the page's first bundle: it loads when the panel first shows, and
  // the tag below upgrades then.
  void import("@pi-kit/elements/changes");
  // The fork picker and the tree both branch, and hand back the message for the composer.
  return html`<aside id="panel" class="panel" aria-labelledby="panel-title" @pi-forked=${view.forked}>
    <div class="panel-head">
      <h2 id="panel-title">${t.panelTitle}</h2>
      <button class="icon-button" aria-label=${t.closePanel} @click=${view.close}>${icons.close}</button>
    </div>
    <section aria-labelledby="stats-title">
      <h3 id="stats-title">${t.stats}</h3>
      <pi-session-stats lang=${lang}></pi-session-stats>
    </section>
    <section aria-labelledby="changes-title">
      <h3 id="changes-title">${t.changes}</h3>
      <pi-changes lang=${lang} .changes=${view.changes}></pi-changes>
    </section>
    <section aria-labelledby="fork-title">
      <h3 id="fork-title">${t.fork}</h3>
      <pi-fork-picker lang=${lang}></pi-fork-picker>
    </section>
    <section aria-labelledby="tree-title">
      <h3 id="tree-title">${t.tree}</h3>
      <pi-session-tree lang=${lang} .forks=${view.forks}></pi-session-tree>
    </section>
    <label class="switch">
      <input
        type="checkbox"
        .checked=${view.internalNotices}
        @change=${(e: Event) => view.showInternalNotices((e.target as HTMLInputElement).checked)}
      />
      <span>${t.showInternal}</span>
    </label>
  </aside>`;
}
