/**
 * The open conversation's workspace changes: the source the session panel's `<pi-changes>` reads
 * (the bridge's changes API, on this origin with the page's token), and the count of changed
 * files beside the title, which follows every listing since the session start: after each run,
 * and after a revert or an undo in the panel (the panel lists the files again then).
 */
import { BridgeWorkspaceChanges, type WorkspaceChangesCallOptions } from "@pi-kit/client";
import type { ChangeSet } from "@pi-kit/protocol/bridge";
import { html, nothing, type ReactiveController, type ReactiveControllerHost } from "lit";
import type { SessionConnection } from "./connection.ts";
import type { DemoStrings } from "./demo-strings.ts";

/** A session's changes that report how many files changed since its start, whenever they list them. */
class CountedChanges extends BridgeWorkspaceChanges {
  readonly #counted: (count: number) => void;

  constructor(connection: SessionConnection, token: string, counted: (count: number) => void) {
    super({
      baseUrl: location.origin,
      session: connection.name,
      token,
      // Reverts and restores name this tab's socket: the bridge lets only the controller undo.
      connectionId: () => connection.transport.control?.you.id,
    });
    this.#counted = counted;
  }

  override async changes(
    since?: string,
    options?: WorkspaceChangesCallOptions,
  ): Promise<ChangeSet> {
    const set = await super.changes(since, options);
    if (since === undefined) this.#counted(set.changes.length);
    return set;
  }
}

/** What the tracker reads from the page. */
interface ChangesHost extends ReactiveControllerHost {
  readonly connection: SessionConnection | undefined;
  readonly token: string | undefined;
}

/** Follows the page's open connection: its changes source, and how many files changed. */
export class ChangesTracker implements ReactiveController {
  readonly #host: ChangesHost;
  #connection: SessionConnection | undefined;
  #off: () => void = () => {};
  /** The open conversation's changes, for `<pi-changes>`. */
  source: BridgeWorkspaceChanges | undefined;
  /** Files changed since the session started, as last listed. */
  count = 0;

  constructor(host: ChangesHost) {
    this.#host = host;
    host.addController(this);
  }

  hostUpdate(): void {
    if (this.#host.connection !== this.#connection) this.#follow(this.#host.connection);
  }

  hostDisconnected(): void {
    this.#follow(undefined);
  }

  /** The count beside the title (a button that opens the panel), while files have changed. */
  badge(t: DemoStrings, open: () => void): unknown {
    if (this.count === 0) return nothing;
    const label = (this.count === 1 ? t.changedFile : t.changedFiles).replace(
      "{count}",
      String(this.count),
    );
    return html`<button class="changes-count" title=${t.showChanges} @click=${open}>${label}</button>`;
  }

  #follow(connection: SessionConnection | undefined): void {
    this.#off();
    this.#off = () => {};
    this.#connection = connection;
    this.count = 0;
    const token = this.#host.token;
    if (connection === undefined || token === undefined) {
      this.source = undefined;
      return;
    }
    const source = new CountedChanges(connection, token, (count) => {
      if (this.source !== source || count === this.count) return;
      this.count = count;
      this.#host.requestUpdate();
    });
    this.source = source;
    // The count is decoration: a failure to list is the panel's to say.
    const refresh = (): void => void source.changes().catch(() => undefined);
    const offs = [
      connection.client.on("run_settled", refresh),
      connection.client.on("session_changed", refresh),
    ];
    this.#off = () => {
      for (const off of offs) off();
    };
    refresh();
  }
}
