import type { SessionFork } from "@pi-kit/client";
import { html, nothing } from "lit";
import { forkBadge, forkTitle } from "../../internal/fork-title.ts";
import { format } from "../../internal/i18n/format.ts";
import type { PiStrings } from "../../internal/i18n/i18n.ts";
import type { PiSessionStrings } from "../../internal/i18n/session-strings.ts";

/**
 * The conversation's other versions below its tree: pi writes each fork to a new session file,
 * whose tree holds only that file's entries, so the file a fork came from (and any other fork)
 * is listed here, one button each, and choosing one switches pi to it.
 */
export function treeVersions(
  forks: readonly SessionFork[] | undefined,
  strings: PiStrings & PiSessionStrings,
  open: (fork: SessionFork) => void,
  busy: boolean,
): unknown {
  const others = (forks ?? []).filter((fork) => !fork.current);
  if (others.length === 0) return nothing;
  return html`<section part="versions" class="versions" aria-labelledby="versions-title">
    <p id="versions-title" class="versions-title">${strings.treeVersions}</p>
    <ul role="list">
      ${others.map((fork) => {
        const shown = forkTitle(fork.title || strings.sessionsUntitled, fork.forkedFrom);
        return html`<li>
          <button
            part="version-button"
            class="version"
            ?disabled=${busy}
            title=${format(strings.treeVersionOpen, { title: fork.title || strings.sessionsUntitled })}
            @click=${() => open(fork)}
          >
            <span class="text">${shown.text}</span>
            ${shown.fork ? forkBadge(strings) : nothing}
            <span class="count">${format(strings.sessionsMessages, { count: fork.messageCount })}</span>
          </button>
        </li>`;
      })}
    </ul>
  </section>`;
}
