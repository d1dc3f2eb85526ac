/**
 * The empty conversation: a greeting that says which model answers, and one click for each thing
 * to try (`suggestions.ts`).
 */
import { format } from "@pi-kit/elements";
import { html, nothing } from "lit";
import type { DemoConfig } from "./demo-config.ts";
import type { DemoLang, DemoStrings } from "./demo-strings.ts";
import { suggestionsFor } from "./suggestions.ts";

/** What the welcome shows, and what a suggestion does. */
export interface WelcomeState {
  /** The demo's model configuration; nothing is shown until it is known. */
  readonly config: DemoConfig | undefined;
  readonly lang: DemoLang;
  readonly strings: DemoStrings;
  /** Sends a suggestion's prompt. */
  readonly send: (prompt: string) => void;
}

/** The welcome, in `<pi-chat>`'s `empty` slot. */
export function welcomeView(view: WelcomeState): unknown {
  const { config, strings: t } = view;
  if (config === undefined) return nothing;
  const lead = config.scripted
    ? t.welcomeScripted
    : format(t.welcomeModel, { model: config.label });
  return html`<div slot="empty" class="welcome">
    <span class="logo large" aria-hidden="true">π</span>
    <h2>${t.welcome}</h2>
    <p>${lead}</p>
    <ul class="suggestions">
      ${suggestionsFor(config.scripted, view.lang).map(
        (s) => html`<li>
          <button class="suggestion" @click=${() => view.send(s.prompt)}>
            <span class="suggestion-title">${s.title}</span>
            ${
              // A slash command is shown as code; a prompt as the words it sends.
              s.prompt.startsWith("/")
                ? html`<code class="suggestion-prompt">${s.prompt}</code>`
                : html`<span class="suggestion-prompt">${s.prompt}</span>`
            }
          </button>
        </li>`,
      )}
    </ul>
  </div>`;
}
