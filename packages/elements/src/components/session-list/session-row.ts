/**
 * One conversation's row in the session list, in its three states: the button that opens it
 * (title, time, badges) with its rename and delete buttons and its other versions; the title field
 * while it is renamed; the question before it is deleted.
 */
import type { SessionFork, SessionSummary } from "@pi-kit/client";
import { html, nothing } from "lit";
import { confirmBar } from "../../internal/confirm-bar.ts";
import { forkBadge, forkTitle } from "../../internal/fork-title.ts";
import { format } from "../../internal/i18n/format.ts";
import type { PiStrings } from "../../internal/i18n/i18n.ts";
import { fullDate, relativeTime } from "../../internal/i18n/relative-time.ts";
import type { PiSessionStrings } from "../../internal/i18n/session-strings.ts";
import * as icons from "../../internal/icons.ts";

/** What a row needs from its list: its state, and what to do on the user's actions. */
export interface SessionRowContext {
  /** `rename` shows the title field, `confirm` the delete question. */
  readonly mode: "view" | "rename" | "confirm";
  /** The row is in the tab order (the list's roving row). */
  readonly roving: boolean;
  /** The row is the open conversation. */
  readonly selected: boolean;
  readonly now: number;
  readonly lang: string;
  readonly strings: PiStrings & PiSessionStrings;
  /** Opens the conversation, or one of its other versions. */
  readonly open: (fork?: SessionFork) => void;
  /** The row's button took focus. */
  readonly focused: () => void;
  readonly startRename: () => void;
  /** Ends renaming with the new title, or `undefined` when cancelled. */
  readonly finishRename: (title: string | undefined) => void;
  readonly startDelete: () => void;
  readonly confirmDelete: () => void;
  readonly cancelDelete: () => void;
}

/** A conversation's row (an `<li>` with `data-name`). */
export function sessionRow(session: SessionSummary, row: SessionRowContext): unknown {
  const s = row.strings;
  const title = session.title || s.sessionsUntitled;
  const shown = forkTitle(title, session.forks?.find((fork) => fork.current)?.forkedFrom);
  const tab = row.roving ? "0" : "-1";
  const classes = [
    "item",
    row.selected ? "selected" : "",
    session.state === "running" ? "running" : "",
    session.damaged ? "damaged" : "",
  ].join(" ");
  if (row.mode === "rename")
    return html`<li part="item" class=${classes} data-name=${session.name}>
      <input
        part="rename-input"
        class="rename"
        type="text"
        aria-label=${format(s.sessionsRenameLabel, { title })}
        .value=${session.title}
        @keydown=${(e: KeyboardEvent) => onRenameKey(e, row)}
        @blur=${(e: FocusEvent) => row.finishRename((e.target as HTMLInputElement).value)}
      />
    </li>`;
  if (row.mode === "confirm")
    return html`<li part="item" class=${classes} data-name=${session.name}>
      ${confirmBar({
        text: format(s.sessionsDeleteConfirm, { title }),
        confirm: s.sessionsDeleteAction,
        cancel: s.dialogCancel,
        destructive: true,
        onConfirm: row.confirmDelete,
        onCancel: row.cancelDelete,
      })}
    </li>`;
  const time = relativeTime(session.lastActivity, row.now, row.lang, s.justNow);
  const details = [
    fullDate(session.lastActivity, row.lang),
    format(s.sessionsMessages, { count: session.messageCount }),
  ].join(" · ");
  return html`<li part="item" class=${classes} data-name=${session.name}>
    <button
      part="open-button"
      class="open"
      tabindex=${tab}
      aria-current=${row.selected ? "true" : "false"}
      aria-describedby="hint"
      title=${details}
      @click=${() => row.open()}
      @focus=${row.focused}
    >
      <span class="heading">
        <span part="title" class="title">${shown.text}</span>
        ${shown.fork ? forkBadge(s) : nothing}
      </span>
      <span class="meta">
        ${time === undefined ? nothing : html`<time part="time" datetime=${session.lastActivity}>${time}</time>`}
        ${session.state === "running" ? html`<span part="badge" class="badge">${s.sessionsRunning}</span>` : nothing}
      </span>
      ${
        session.damaged
          ? html`<span part="damaged" class="damaged-reason">${icons.warning()}${format(s.sessionsDamaged, { reason: session.damaged })}</span>`
          : nothing
      }
    </button>
    ${rowActions({ title, tab, strings: s, rename: row.startRename, remove: row.startDelete })}
    ${forkList(session, { title, tab, now: row.now, lang: row.lang, strings: s, choose: row.open })}
  </li>`;
}

function onRenameKey(event: KeyboardEvent, row: SessionRowContext): void {
  if (event.isComposing || event.keyCode === 229) return;
  if (event.key === "Enter") {
    event.preventDefault();
    row.finishRename((event.target as HTMLInputElement).value);
  } else if (event.key === "Escape") {
    event.preventDefault();
    event.stopPropagation();
    row.finishRename(undefined);
  }
}

/** What a row's rename and delete buttons need. */
interface RowActions {
  /** The conversation's title as its row shows it. */
  readonly title: string;
  /** The row's `tabindex`. */
  readonly tab: string;
  readonly strings: PiStrings & PiSessionStrings;
  readonly rename: () => void;
  readonly remove: () => void;
}

/** A conversation row's rename and delete buttons (shown over the row's end on hover and focus). */
function rowActions(a: RowActions): unknown {
  const s = a.strings;
  const rename = format(s.sessionsRename, { title: a.title });
  const remove = format(s.sessionsDelete, { title: a.title });
  return html`<span part="actions" class="actions">
    <button part="rename-button" class="icon" tabindex=${a.tab} aria-label=${rename} title=${rename} @click=${a.rename}>
      ${icons.pencil()}
    </button>
    <button part="delete-button" class="icon" tabindex=${a.tab} aria-label=${remove} title=${remove} @click=${a.remove}>
      ${icons.trash()}
    </button>
  </span>`;
}

/** What the list of a conversation's other versions needs from its row. */
interface ForkListContext {
  /** The conversation's title as its row shows it. */
  readonly title: string;
  /** The row's `tabindex`: its versions are in the tab order when the row is. */
  readonly tab: string;
  readonly now: number;
  readonly lang: string;
  readonly strings: PiStrings & PiSessionStrings;
  /** Opens one version. */
  readonly choose: (fork: SessionFork) => void;
}

/**
 * The other versions of a conversation (its session files other than the one pi continues: the
 * file a fork came from, or the forks), one button each, under the conversation's row.
 */
function forkList(session: SessionSummary, context: ForkListContext): unknown {
  const others = (session.forks ?? []).filter((fork) => !fork.current);
  if (others.length === 0) return nothing;
  const s = context.strings;
  return html`<ul part="forks" class="forks" role="list" aria-label=${format(s.sessionsForks, { title: context.title })}>
    ${others.map((fork) => {
      const time = relativeTime(fork.lastActivity, context.now, context.lang, s.justNow);
      const details = format(s.sessionsForkDetails, {
        date: fullDate(fork.lastActivity, context.lang),
        count: fork.messageCount,
      });
      const shown = forkTitle(fork.title || s.sessionsUntitled, fork.forkedFrom);
      return html`<li>
        <button
          part="fork-button"
          class="fork"
          tabindex=${context.tab}
          title=${details}
          @click=${() => context.choose(fork)}
        >
          <span part="fork-title" class="fork-title">${shown.text}</span>
          ${shown.fork ? forkBadge(s) : nothing}
          ${time === undefined ? nothing : html`<time datetime=${fork.lastActivity}>${time}</time>`}
        </button>
      </li>`;
    })}
  </ul>`;
}
