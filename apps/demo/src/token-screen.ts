/** The page shown without a valid bridge token: why, and a field to paste one. */
import { format } from "@pi-kit/elements";
import { html } from "lit";
import { parseToken } from "./access-token.ts";
import type { DemoStrings } from "./demo-strings.ts";

/** What the token screen shows, and what it does with a token. */
export interface TokenScreenState {
  /** The bridge refused the token the page had (else there was none). */
  readonly rejected: boolean;
  /** What was pasted is no token. */
  readonly invalid: boolean;
  readonly strings: DemoStrings;
  /** Called with a token pasted (`undefined` when what was pasted is none) and the text as typed. */
  readonly submit: (token: string | undefined, typed: string) => void;
}

/** The token screen. */
export function tokenScreen(view: TokenScreenState): unknown {
  const t = view.strings;
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const input = (event.target as HTMLFormElement).elements.namedItem("token") as HTMLInputElement;
    view.submit(parseToken(input.value), input.value);
  };
  return html`<main class="token-screen">
    <div class="card">
      <span class="logo large" aria-hidden="true">π</span>
      <h1>${t.tokenTitle}</h1>
      <p>
        ${view.rejected ? t.tokenRejected : format(t.tokenMissing, { hint: "#token=…" })}
      </p>
      <form @submit=${submit}>
        <label for="token">${t.tokenPaste}</label>
        <div class="row">
          <input
            id="token"
            name="token"
            autocomplete="off"
            spellcheck="false"
            placeholder=${format(t.tokenPlaceholder, { origin: location.origin })}
            aria-invalid=${view.invalid ? "true" : "false"}
            aria-describedby="token-help"
          />
          <button class="primary" type="submit">${t.tokenSubmit}</button>
        </div>
        <p id="token-help" class=${view.invalid ? "error" : "hint"}>
          ${view.invalid ? t.tokenInvalid : t.tokenOtherTab}
        </p>
      </form>
    </div>
  </main>`;
}
