/**
 * The top of `<pi-chat>`: its header, and the status line (connection, model, thinking, run state,
 * usage and extension statuses).
 */
import type { PiClient, SessionSnapshot } from "@pi-kit/client";
import type { AgentMessage } from "@pi-kit/protocol";
import { html, nothing, type TemplateResult } from "lit";
import { format, formatCost, formatTokens } from "../../internal/i18n/format.ts";
import type { PiStrings } from "../../internal/i18n/i18n.ts";
import { thinkingLevelLabel } from "../../internal/thinking-levels.ts";
import type { ConnectionText } from "./connection-text.ts";

interface Totals {
  input: number;
  output: number;
  cost: number;
}

/** Sums usage over assistant messages, indexing only appended messages. */
export class UsageTotals {
  #messages: readonly AgentMessage[] = [];
  #totals: Totals = { input: 0, output: 0, cost: 0 };

  /** Totals for `messages`. */
  of(messages: readonly AgentMessage[]): Totals {
    const previous = this.#messages;
    let from = previous.length;
    if (messages === previous) return this.#totals;
    if (messages.length < from || (from > 0 && messages[from - 1] !== previous[from - 1])) {
      this.#totals = { input: 0, output: 0, cost: 0 };
      from = 0;
    }
    const t = { ...this.#totals };
    for (let i = from; i < messages.length; i++) {
      const m = messages[i];
      if (m?.role !== "assistant") continue;
      t.input += m.usage.input + m.usage.cacheRead;
      t.output += m.usage.output;
      t.cost += m.usage.cost.total;
    }
    this.#messages = messages;
    this.#totals = t;
    return t;
  }
}

/** The header row (the title an extension set, and the `header` slot) and the status bar under it. */
export function chatTop(
  snapshot: SessionSnapshot | undefined,
  connection: ConnectionText,
  totals: Totals,
  s: PiStrings,
  actions: unknown,
): TemplateResult {
  return html`<div part="header" class="header">
      ${snapshot?.ui.title ? html`<h2 part="title" class="title">${snapshot.ui.title}</h2>` : nothing}
      <slot name="header"></slot>
    </div>
    ${statusBar(snapshot, connection, totals, s, actions)}`;
}

/** Renders the status bar; `connection` says where the connection stands, in words. */
export function statusBar(
  snapshot: SessionSnapshot | undefined,
  connection: ConnectionText,
  totals: Totals,
  s: PiStrings,
  actions: unknown = nothing,
): TemplateResult {
  const state = snapshot?.state;
  const retry = snapshot?.retry;
  const context = snapshot?.contextUsage;
  return html`<div part="status-bar" class="status-bar" role="group" aria-label=${s.status}>
    <span class=${`conn ${connection.status}`}><span class="dot" aria-hidden="true"></span>${connection.label}</span>
    ${
      state?.model
        ? html`<span part="model" class="model" title=${`${s.modelLabel}: ${state.model.provider}/${state.model.id}`}
            ><span class="sr-only">${s.modelLabel}: </span>${state.model.name || state.model.id}</span
          >`
        : nothing
    }
    ${
      state && state.thinkingLevel !== "off"
        ? html`<span class="thinking">${format(s.thinkingLevel, { level: thinkingLevelLabel(state.thinkingLevel, s) })}</span>`
        : nothing
    }
    ${
      snapshot?.isRetrying && retry
        ? html`<span class="warn">${format(s.retrying, {
            attempt: retry.attempt,
            max: retry.maxAttempts,
            seconds: Math.round(retry.delayMs / 1000),
          })}</span>`
        : nothing
    }
    ${snapshot?.isCompacting ? html`<span class="warn">${s.compacting}</span>` : nothing}
    ${[...(snapshot?.ui.statuses ?? [])].map(([key, text]) => html`<span class="ext" data-key=${key}>${text}</span>`)}
    <span class="spacer"></span>
    ${context?.percent != null ? html`<span>${format(s.context, { percent: Math.round(context.percent) })}</span>` : nothing}
    ${
      totals.input + totals.output > 0
        ? html`<span class="usage">${format(s.tokens, { input: formatTokens(totals.input), output: formatTokens(totals.output) })}</span>`
        : nothing
    }
    ${totals.cost > 0 ? html`<span class="usage">${format(s.cost, { currency: "$", cost: formatCost(totals.cost) })}</span>` : nothing}
    ${actions}
  </div>`;
}

/** Asks pi for the session's context usage, which the status bar shows once it is known. */
export function loadContextUsage(client: PiClient | undefined): void {
  if (
    client === undefined ||
    client.signal.aborted ||
    !client.capabilities.supports("get_session_stats")
  )
    return;
  client.getSessionStats({ timeoutMs: 10_000 }).catch(() => {
    // Context usage is optional decoration: a failed refresh leaves the old figure.
  });
}
