/**
 * The error box of a failed answer: what went wrong, after how many attempts, and what to check.
 * It loads with the first failed answer a page shows (`<pi-message>` waits for it before that
 * render).
 * @module
 */
import type { AssistantMessage } from "@pi-kit/protocol";
import { html, nothing, type TemplateResult } from "lit";
import { format } from "../../internal/i18n/format.ts";
import type { PiStrings } from "../../internal/i18n/i18n.ts";

/** What kind of failure an error message describes, for the hint shown under it. */
export type FailureKind = "auth" | "network" | "rate" | "server" | "other";

const KINDS: readonly [FailureKind, RegExp][] = [
  ["auth", /\b(401|403)\b|api[ _-]?key|unauthori[sz]ed|authenticat|forbidden|permission denied/i],
  ["rate", /\b429\b|rate.?limit|too many requests|quota/i],
  [
    "network",
    /ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EHOSTUNREACH|connection error|network|fetch failed|socket hang up|timed? ?out/i,
  ],
  ["server", /\b5\d\d\b|server error|internal error|bad gateway|unavailable|overloaded/i],
];

/** Sorts a provider's error message into what the user can do about it. */
export function failureKind(errorMessage: string): FailureKind {
  return KINDS.find(([, pattern]) => pattern.test(errorMessage))?.[0] ?? "other";
}

/**
 * A provider's error in words: `503: {"message":"Overloaded",…}` reads as `503 · Overloaded`;
 * anything else is kept as it is.
 */
export function readableError(errorMessage: string): string {
  const match = /^(\d{3})\s*:?\s*(\{[\s\S]*\})\s*$/.exec(errorMessage.trim());
  if (match === null) return errorMessage;
  try {
    const body = JSON.parse(match[2] as string) as {
      message?: unknown;
      error?: { message?: unknown } | string;
    };
    const message =
      typeof body.message === "string"
        ? body.message
        : typeof body.error === "string"
          ? body.error
          : typeof body.error?.message === "string"
            ? body.error.message
            : undefined;
    return message === undefined ? errorMessage : `${match[1]} · ${message}`;
  } catch {
    return errorMessage;
  }
}

const HINTS = {
  auth: "errorHintAuth",
  network: "errorHintNetwork",
  rate: "errorHintRate",
  server: "errorHintServer",
  other: "errorHintOther",
} as const satisfies Record<FailureKind, keyof PiStrings>;

/** Renders the error of a failed answer, with the count of attempts it took and a hint. */
export function errorNotice(
  message: AssistantMessage,
  s: PiStrings,
  count: number,
): TemplateResult {
  const raw = message.errorMessage ?? "";
  // The count is said once: a provider's own "(attempt 4)" would repeat it.
  const text =
    count > 1 ? readableError(raw).replace(/\s*\(attempt \d+\)\s*$/i, "") : readableError(raw);
  return html`<div part="error" class="error" role="note" title=${raw}>
    ${s.error}: ${text}${count > 1 ? html` <span>(${format(s.errorAttempts, { count })})</span>` : nothing}
    <div part="error-hint" class="muted">${s[HINTS[failureKind(raw)]]}</div>
  </div>`;
}
