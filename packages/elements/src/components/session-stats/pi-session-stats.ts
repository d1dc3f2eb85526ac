import type { PiClient, SessionModel } from "@pi-kit/client";
import type { SessionStats } from "@pi-kit/protocol";
import { html, LitElement, nothing } from "lit";
import { busyTask } from "../../internal/busy-task.ts";
import {
  ConnectionController,
  refreshOnChanges,
} from "../../internal/controllers/connection-controller.ts";
import { LocaleController } from "../../internal/controllers/locale-controller.ts";
import { format, formatCost, formatTokens } from "../../internal/i18n/format.ts";
import type { PiStrings } from "../../internal/i18n/i18n.ts";
import { type PiSessionStrings, sessionStringsFor } from "../../internal/i18n/session-strings.ts";
import { baseStyles } from "../../styles/shared.ts";
import { tokenStyles } from "../../styles/tokens.ts";
import { statsStyles } from "./pi-session-stats.styles.ts";

/**
 * Token, cost, message and context-window figures of the session from `get_session_stats`,
 * refreshed when each run settles and when the session changes. Set `stats` to show figures you
 * already have.
 *
 * @tagname pi-session-stats
 * @summary Session statistics.
 * @event pi-error - Loading failed (`action` is `load-stats`).
 * @csspart list - The description list.
 * @csspart term - A figure's name.
 * @csspart value - A figure.
 * @csspart meter - The context-window meter.
 * @csspart refresh-button - The refresh button.
 * @cssproperty [--pi-color-accent=#2f4cc9] - Meter fill.
 * @cssproperty [--pi-color-warning=#7a5200] - Meter fill from 60 %.
 * @cssproperty [--pi-color-danger=#b42318] - Meter fill above 80 %.
 */
export class PiSessionStats extends LitElement {
  static override styles = [tokenStyles, baseStyles, statsStyles];
  static override properties = {
    client: { attribute: false },
    session: { attribute: false },
    stats: { attribute: false },
    strings: { attribute: false },
    theme: { type: String, reflect: true },
    busy: { state: true },
  };

  /** The client to ask. */
  declare client: PiClient | undefined;
  /** Unused without a client; accepted so the element fits a provider. */
  declare session: SessionModel | undefined;
  /** The figures; loaded from the client (and replaced on each refresh) when there is one. */
  declare stats: SessionStats | undefined;
  /** Overrides for the built-in strings of the resolved language. */
  declare strings: Partial<PiStrings & PiSessionStrings> | undefined;
  /** `light`, `dark`, or `auto` / unset to follow `prefers-color-scheme`. */
  declare theme: "light" | "dark" | "auto" | undefined;
  declare busy: boolean;

  readonly #connection = new ConnectionController(this, {
    changed: refreshOnChanges(() => void this.refresh()),
  });
  readonly #locale = new LocaleController(this, sessionStringsFor);

  /** The first render in a language whose table still loads waits for it (no flash of English). */
  protected override scheduleUpdate(): Promise<unknown> | undefined {
    return this.#locale.schedule(() => super.scheduleUpdate());
  }

  constructor() {
    super();
    this.busy = false;
  }

  /** Reloads the figures from the client. */
  async refresh(): Promise<void> {
    const client = this.#connection.client;
    if (client === undefined) return;
    await busyTask(this, "load-stats", async () => {
      this.stats = await client.getSessionStats();
    });
  }

  protected override willUpdate(): void {
    this.#connection.resolve();
  }

  protected override render(): unknown {
    const s = this.#locale.strings;
    const stats = this.stats;
    const refresh = this.#connection.client
      ? html`<button part="refresh-button" class="refresh" ?disabled=${this.busy} @click=${() => void this.refresh()}>${s.refresh}</button>`
      : nothing;
    if (stats === undefined)
      return html`<p class="empty">${this.busy ? s.loading : s.statsEmpty}</p>${refresh}`;
    const t = stats.tokens;
    const usage = stats.contextUsage;
    const percent = usage?.percent ?? null;
    return html`<dl part="list" aria-label=${s.statsLabel} aria-busy=${this.busy ? "true" : "false"}>
        ${row(s.statsMessages, format(s.statsMessagesValue, { user: stats.userMessages, assistant: stats.assistantMessages }))}
        ${row(s.statsToolCalls, String(stats.toolCalls))}
        ${row(s.statsInput, formatTokens(t.input))}
        ${row(s.statsOutput, formatTokens(t.output))}
        ${t.cacheRead || t.cacheWrite ? row(s.statsCache, format(s.statsCacheValue, { read: formatTokens(t.cacheRead), write: formatTokens(t.cacheWrite) })) : nothing}
        ${row(s.statsCost, `$${formatCost(stats.cost)}`)}
        ${
          usage === undefined
            ? nothing
            : html`<div class="row">
              <dt part="term">${s.statsContext}</dt>
              <dd part="value">
                ${
                  percent === null
                    ? s.statsContextUnknown
                    : html`<meter part="meter" min="0" max="100" low="60" high="80" optimum="0" .value=${percent} aria-label=${s.statsContext}></meter>
                      ${format(s.statsContextValue, { percent: Math.round(percent), window: formatTokens(usage.contextWindow) })}`
                }
              </dd>
            </div>`
        }
      </dl>${refresh}`;
  }
}

function row(term: string, value: string): unknown {
  return html`<div class="row"><dt part="term">${term}</dt><dd part="value">${value}</dd></div>`;
}

declare global {
  interface HTMLElementTagNameMap {
    "pi-session-stats": PiSessionStats;
  }
}
