import { type ControlledTransport, type ControlState, isControlledTransport } from "@pi-kit/client";
import { ClientWatcher } from "./client-watcher.ts";

/**
 * Who controls the bridge session of the client its host watches: the host updates on every
 * change. A client whose transport does not share sessions (a child process, a replay) always
 * controls: `control` is `undefined` and `watching` is false.
 */
export class ControlController extends ClientWatcher {
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

  protected subscribe(): (() => void) | undefined {
    const transport = this.#transport();
    if (transport === undefined) return;
    const update = (): void => this.host.requestUpdate();
    transport.addEventListener("controlchange", update);
    return () => transport.removeEventListener("controlchange", update);
  }

  #transport(): ControlledTransport | undefined {
    const transport = this.client?.transport;
    return transport !== undefined && isControlledTransport(transport) ? transport : undefined;
  }
}
