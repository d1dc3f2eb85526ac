import type { ControlState, PiClient } from "@pi-kit/client";
import type { ReactiveController, ReactiveControllerHost } from "lit";

/** A transport that reports who controls its bridge session (the WebSocket transport). */
interface ControlledTransport extends EventTarget {
  readonly control: ControlState | undefined;
  takeControl(): Promise<ControlState>;
}

function isControlled(transport: unknown): transport is ControlledTransport {
  return (
    transport instanceof EventTarget &&
    typeof (transport as Partial<ControlledTransport>).takeControl === "function"
  );
}

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
    const transport = this.#client?.transport;
    return isControlled(transport) ? transport.control : undefined;
  }

  /** The connection watches: another one (or nobody) drives pi, so this one must not send. */
  get watching(): boolean {
    const control = this.control;
    return control !== undefined && !control.inControl;
  }

  /** Makes the watched client's connection the controller; rejects as the transport does. */
  async take(): Promise<void> {
    const transport = this.#client?.transport;
    if (isControlled(transport)) await transport.takeControl();
  }

  /** Watches `client` (or nothing). */
  watch(client: PiClient | undefined): void {
    if (client === this.#client) return;
    this.#off?.();
    this.#off = undefined;
    this.#client = client;
    const transport = client?.transport;
    if (!isControlled(transport)) return;
    const update = (): void => this.#host.requestUpdate();
    transport.addEventListener("controlchange", update);
    this.#off = () => transport.removeEventListener("controlchange", update);
  }

  hostDisconnected(): void {
    this.watch(undefined);
  }
}
