import type { PiClient } from "@pi-kit/client";
import type { ReactiveController, ReactiveControllerHost } from "lit";

/**
 * The base of the controllers that follow one client at a time: `watch` switches to another
 * client (or none), releasing what was subscribed on the last one, and a host that disconnects
 * lets go of its client, so a removed element holds no listener.
 */
export abstract class ClientWatcher implements ReactiveController {
  protected readonly host: ReactiveControllerHost;
  /** The client watched now. */
  protected client: PiClient | undefined;
  #off: (() => void) | undefined;

  constructor(host: ReactiveControllerHost) {
    this.host = host;
    host.addController(this);
  }

  /** Watches `client` (or nothing). */
  watch(client: PiClient | undefined): void {
    if (client === this.client) return;
    this.#off?.();
    this.client = client;
    this.#off = client && this.subscribe(client);
  }

  hostDisconnected(): void {
    this.watch(undefined);
  }

  /** Starts following `client`; returns what stops it. */
  protected abstract subscribe(client: PiClient): (() => void) | undefined;
}
