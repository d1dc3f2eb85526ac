/**
 * The sidebar: the brand, the history of conversations (`<pi-session-list>`) and the badge that
 * names the model answering. A drawer on small screens.
 */
import type {
  PiErrorEvent,
  PiSessionDeletedEvent,
  PiSessionDeleteEvent,
  PiSessionSelectEvent,
} from "@pi-kit/elements";
import { html, nothing } from "lit";
import type { DemoConfig } from "./demo-config.ts";
import type { DemoHistory } from "./demo-history.ts";
import type { DemoLang, DemoStrings } from "./demo-strings.ts";
import { icons } from "./icons.ts";

/** What the sidebar shows, and what its parts do. */
export interface SidebarState {
  readonly lang: DemoLang;
  readonly strings: DemoStrings;
  readonly history: DemoHistory | undefined;
  /** The open conversation's name. */
  readonly selected: string | undefined;
  /** The server's description; the badge waits for it (it never comes offline). */
  readonly config: DemoConfig | undefined;
  /** The sidebar is a drawer, and `open` says whether it shows. */
  readonly narrow: boolean;
  readonly open: boolean;
  /** The connection is down: the page knows of no run going on. */
  readonly offline: boolean;
  readonly close: () => void;
  readonly select: (event: PiSessionSelectEvent) => void;
  readonly deleting: (event: PiSessionDeleteEvent) => void;
  readonly deleted: (event: PiSessionDeletedEvent) => void;
  readonly failed: (event: PiErrorEvent) => void;
}

/** The sidebar. */
export function sidebar(view: SidebarState): unknown {
  const { strings: t, config } = view;
  return html`
    <aside
      id="sidebar"
      class="sidebar ${view.open ? "open" : ""} ${view.offline ? "offline" : ""}"
      aria-label=${t.history}
      ?inert=${view.narrow && !view.open}
    >
      <div class="brand">
        <span class="logo" aria-hidden="true">π</span>
        <span class="brand-name">${t.title}</span>
        ${
          view.narrow
            ? html`<button class="icon-button" aria-label=${t.closeMenu} @click=${view.close}>${icons.close}</button>`
            : nothing
        }
      </div>
      <pi-session-list
        .history=${view.history}
        selected=${view.selected ?? ""}
        lang=${view.lang}
        @pi-session-select=${view.select}
        @pi-session-delete=${view.deleting}
        @pi-session-deleted=${view.deleted}
        @pi-error=${view.failed}
      ></pi-session-list>
      <div class="sidebar-foot">
        ${
          config === undefined
            ? nothing
            : html`<span class="model-badge ${config.scripted ? "scripted" : ""}">
                ${config.scripted ? t.scripted : config.label}
              </span>`
        }
      </div>
    </aside>
  `;
}
