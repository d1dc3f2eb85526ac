/**
 * The banner above the chat when the connection needs the visitor: that the browser is offline,
 * a problem with its remedy, the notice that the server restarted, or a reconnect in progress
 * with a way to retry now.
 */
import type { ConnectionState } from "@pi-kit/client";
import { format } from "@pi-kit/elements";
import { html, nothing } from "lit";
import type { ConnectionProblem } from "./connection-problem.ts";
import type { DemoStrings } from "./demo-strings.ts";
import { icons } from "./icons.ts";

/** What the banner shows, and what its buttons do. */
export interface BannerState {
  readonly problem: ConnectionProblem | undefined;
  /** The server restarted while the page was connected. */
  readonly restarted: boolean;
  readonly state: ConnectionState | undefined;
  /** The browser has no network: that explains any problem, and no button fixes it. */
  readonly offline: boolean;
  readonly strings: DemoStrings;
  /** Fixes the problem (starts pi again, or reconnects). */
  readonly reopen: (problem: ConnectionProblem) => void;
  /** Hides the restart notice. */
  readonly dismiss: () => void;
  /** Skips the reconnect's wait. */
  readonly reconnect: () => void;
}

/** The banner, or nothing while all is well (or the chat's own status line says enough). */
export function problemBanner(view: BannerState): unknown {
  const t = view.strings;
  if (view.offline) return banner("status", t.offline, nothing, "offline");
  const problem = view.problem;
  if (problem !== undefined) {
    const [text, action] = problemText(problem, t);
    return banner(
      "alert",
      text,
      html`<button class="primary" @click=${() => view.reopen(problem)}>${action}</button>`,
    );
  }
  if (view.restarted) {
    return banner(
      "status",
      t.restarted,
      // The conversation is back: nothing to reload, only a notice to dismiss.
      html`<button @click=${view.dismiss}>${t.dismiss}</button>`,
    );
  }
  const state = view.state;
  if (state?.status === "reconnecting") {
    return banner(
      "status",
      t.reconnecting,
      html`<button @click=${view.reconnect}>${t.retryNow}</button>`,
    );
  }
  // While connecting, the chat's own status line says so: one line, not two.
  return nothing;
}

/** What the banner says about a problem, and the label of the button that fixes it. */
function problemText(problem: ConnectionProblem, t: DemoStrings): [text: string, action: string] {
  switch (problem.kind) {
    case "exited":
      return [
        problem.signal === null
          ? format(t.piStopped, { code: problem.exitCode ?? "?" })
          : format(t.piKilled, { signal: problem.signal }),
        t.restart,
      ];
    case "closed":
      return [t.closed, t.reopen];
    case "token":
      return [t.tokenRejected, t.retry];
    case "failed":
      return [format(t.failed, { reason: problem.reason }), t.retry];
  }
}

function banner(
  role: "alert" | "status",
  text: string,
  actions: unknown,
  kind: string = role,
): unknown {
  return html`<div class="banner ${kind}" role=${role}>
    ${role === "alert" ? icons.warning : kind === "offline" ? icons.offline : nothing}<span class="banner-text">${text}</span>
    <span class="banner-actions">${actions}</span>
  </div>`;
}
