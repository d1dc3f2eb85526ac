/**
 * The bridge's history of conversations, as the page uses it: `BridgeSessionHistory` on this
 * origin with the page's token, which also says when a conversation was renamed, so the title
 * above the chat follows the sidebar.
 */
import { BridgeSessionHistory, type HistoryCallOptions, type SessionSummary } from "@pi-kit/client";

/** The history the sidebar and the page share; `renamed` hears of every successful rename. */
export class DemoHistory extends BridgeSessionHistory {
  readonly #renamed: (session: SessionSummary) => void;

  constructor(token: string, renamed: (session: SessionSummary) => void) {
    super({ baseUrl: location.origin, token });
    this.#renamed = renamed;
  }

  override async rename(
    name: string,
    title: string,
    options?: HistoryCallOptions,
  ): Promise<SessionSummary> {
    const session = await super.rename(name, title, options);
    this.#renamed(session);
    return session;
  }
}
