import { ContextConsumer } from "@lit/context";
import type { PiClient, SessionModel, SessionSnapshot } from "@pi-kit/client";
import type { ReactiveController, ReactiveControllerHost } from "lit";
import { connectionOf, type PiConnection, piConnectionContext } from "../context.ts";
import { SessionController } from "./session-controller.ts";

/** An element that takes a client or a session model as properties. */
export interface ConnectionHost extends ReactiveControllerHost, HTMLElement {
  client: PiClient | undefined;
  session: SessionModel | undefined;
}

/** Options for {@link ConnectionController}. */
export interface ConnectionOptions {
  /** Subscribe to the session model and expose its snapshot (costs one rAF-coalesced update per change). */
  observe?: boolean;
  /**
   * Called when the resolved connection changes, including to `undefined` when the host
   * disconnects, so subscriptions can be made and released in one place.
   */
  changed?: (next: PiConnection | undefined, previous: PiConnection | undefined) => void;
}

/**
 * Resolves the connection of a standalone element: its own `client` / `session` properties first,
 * else the nearest `<pi-provider>` through context. Re-resolves before each update, so setting a
 * property or a provider arriving later both just work.
 */
export class ConnectionController implements ReactiveController {
  readonly #host: ConnectionHost;
  readonly #consumer: ContextConsumer<typeof piConnectionContext, ConnectionHost>;
  readonly #store: SessionController | undefined;
  readonly #changed: ConnectionOptions["changed"];
  #current: PiConnection | undefined;

  constructor(host: ConnectionHost, options: ConnectionOptions = {}) {
    this.#host = host;
    this.#changed = options.changed;
    this.#store = options.observe ? new SessionController(host) : undefined;
    this.#consumer = new ContextConsumer(host, { context: piConnectionContext, subscribe: true });
    host.addController(this);
  }

  /** The connection in use. */
  get connection(): PiConnection | undefined {
    return this.#current;
  }

  /** The client in use, when there is one and its transport is still open. */
  get client(): PiClient | undefined {
    const client = this.#current?.client;
    return client?.signal.aborted ? undefined : client;
  }

  /** The latest session snapshot (only with `observe`). */
  get snapshot(): SessionSnapshot | undefined {
    return this.#store?.snapshot;
  }

  /** Applies pending session changes now instead of on the next frame. */
  flush(): void {
    this.resolve();
    this.#store?.flush();
  }

  /**
   * Re-resolves the connection now. Controllers update after `willUpdate`, so a host that derives
   * state from the snapshot there calls this first.
   */
  resolve(): void {
    const next =
      connectionOf(this.#host.client, this.#host.session) ??
      (this.#host.isConnected ? this.#consumer.value : undefined);
    const previous = this.#current;
    if (next?.client === previous?.client && next?.session === previous?.session) return;
    this.#current = next;
    this.#store?.setModel(next?.session);
    this.#changed?.(next, previous);
  }

  hostConnected(): void {
    // A re-inserted element gets no update of its own; ask for one so the connection is re-resolved.
    this.#host.requestUpdate();
  }

  hostUpdate(): void {
    this.resolve();
  }

  hostDisconnected(): void {
    const previous = this.#current;
    this.#current = undefined;
    this.#store?.setModel(undefined);
    if (previous !== undefined) this.#changed?.(undefined, previous);
  }
}

/**
 * A {@link ConnectionOptions.changed} callback for elements that show data loaded from pi: it
 * calls `refresh` as soon as a client is there (unless `initial` is false), after each of its runs,
 * and after each session change (new session, switch, fork, clone, reconnect), when the client
 * already shows the new session. With `userMessages`, also when pi has taken a message of the
 * user's: pi saves it then, so a history shows a new conversation while its first run goes on.
 */
export function refreshOnChanges(
  refresh: () => void,
  { initial = true, userMessages = false }: { initial?: boolean; userMessages?: boolean } = {},
): NonNullable<ConnectionOptions["changed"]> {
  let offs: (() => void)[] = [];
  return (next) => {
    for (const off of offs) off();
    offs = [];
    const client = next?.client;
    if (client === undefined) return;
    offs = [client.on("run_settled", refresh), client.on("session_changed", refresh)];
    if (userMessages)
      offs.push(
        client.on("message_end", (event) => {
          if (event.message.role === "user") refresh();
        }),
      );
    if (initial) refresh();
  };
}
