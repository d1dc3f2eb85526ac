/**
 * A fork's mark in the lists of conversations and versions: the title without the bridge's
 * " (fork)" suffix, and a badge of its own (in the page's language), which a long title cannot
 * push out of sight, instead of English text at the end of the title, which an ellipsis cuts.
 */
import { css, html, type TemplateResult } from "lit";
import type { PiStrings } from "./i18n/i18n.ts";
import type { PiSessionStrings } from "./i18n/session-strings.ts";

/** What the bridge puts after a fork's title (`<its origin's title> (fork)`, once per fork). */
const SUFFIX = /(?:\s*\(fork\))+$/;

/** A title split for display: the text, and whether a fork badge goes with it. */
export interface ForkTitle {
  readonly text: string;
  readonly fork: boolean;
}

/**
 * Splits `title` of a session file; `forkedFrom` is the file it was forked from, if any (a
 * version without one is no fork, whatever its title says).
 */
export function forkTitle(title: string, forkedFrom: string | undefined): ForkTitle {
  if (forkedFrom === undefined) return { text: title, fork: false };
  return { text: title.replace(SUFFIX, "") || title, fork: true };
}

/** The badge after a fork's title. */
export function forkBadge(strings: PiStrings & PiSessionStrings): TemplateResult {
  return html`<span part="fork-badge" class="fork-badge">${strings.sessionsForkBadge}</span>`;
}

/** The badge's look: small, never shrunk or cut. */
export const forkBadgeStyles = css`
  .fork-badge {
    flex: none;
    align-self: center;
    padding: 0 0.45em;
    border: 1px solid var(--_color-border);
    border-radius: 999px;
    font-size: 0.75em;
    font-weight: 500;
    line-height: 1.5;
    color: var(--_color-muted);
    white-space: nowrap;
  }
`;
