import {
  type ControlledTransport,
  type ControlState,
  isControlledTransport,
  type PiClient,
} from "@pi-kit/client";
import type { ReactiveController, ReactiveControllerHost } from "lit";

/**
 * Who controls the bridge session of the client its host watches: the host updates on every
 * change. A client whose transport does not share sessions (a child process, a replay) always
 * controls: `control` is `undefined` and `watching` is false.
 */
export class ControlController implements ReactiveController {
  readonly #host: ReactiveControllerHost;
  #client: PiClient | undefined;
  #off: (() => void) | undefined;

  constructor(host: ReactiveControllerHost) {
    this.#host = host;
    host.addController(this);
  }

  /** What the bridge last said about the watched client's connection. */
  get control(): ControlState | undefined {
    return this.#transport()?.control;
  }

  /** The connection watches: another one (or nobody) drives pi, so this one must not send. */
  get watching(): boolean {
    const control = this.control;
    return control !== undefined && !control.inControl;
  }

  /** Makes the watched client's connection the controller; rejects as the transport does. */
  async takeControl(): Promise<void> {
    await this.#transport()?.takeControl();
  }

  /** Watches `client` (or nothing). */
  watch(client: PiClient | undefined): void {
    if (client === this.#client) return;
    this.#off?.();
    this.#off = undefined;
    this.#client = client;
    const transport = this.#transport();
    if (transport === undefined) return;
    const update = (): void => this.#host.requestUpdate();
    transport.addEventListener("controlchange", update);
    this.#off = () => transport.removeEventListener("controlchange", update);
  }

  hostDisconnected(): void {
    this.watch(undefined);
  }

  #transport(): ControlledTransport | undefined {
    const transport = this.#client?.transport;
    return transport !== undefined && isControlledTransport(transport) ? transport : undefined;
  }
}
