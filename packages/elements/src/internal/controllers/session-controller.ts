import type { SessionModel, SessionSnapshot } from "@pi-kit/client";
import type { ReactiveController, ReactiveControllerHost } from "lit";
import { RafCoalescer } from "../raf-coalescer.ts";

/**
 * Subscribes a Lit element to a session model while the element is connected, and asks it to
 * update at most once per animation frame. The snapshot is immutable, so the element can compare
 * parts of it by identity to skip work.
 */
export class SessionController implements ReactiveController {
  readonly #host: ReactiveControllerHost;
  readonly #coalescer: RafCoalescer;
  #model: SessionModel | undefined;
  #off: (() => void) | undefined;
  #connected = false;
  /** The latest snapshot the host has been asked to render; `undefined` without a model. */
  snapshot: SessionSnapshot | undefined;

  constructor(host: ReactiveControllerHost) {
    this.#host = host;
    this.#coalescer = new RafCoalescer(() => this.#pull());
    host.addController(this);
  }

  /** The model being observed. */
  get model(): SessionModel | undefined {
    return this.#model;
  }

  /** Switches to another model (or none); the first snapshot is taken at once. */
  setModel(model: SessionModel | undefined): void {
    if (model === this.#model) return;
    this.#unsubscribe();
    this.#model = model;
    if (this.#connected) this.#subscribe();
    this.#pull();
  }

  /** Applies a pending change now instead of on the next frame. */
  flush(): void {
    this.#coalescer.flush();
  }

  hostConnected(): void {
    this.#connected = true;
    this.#subscribe();
    this.#pull();
  }

  hostDisconnected(): void {
    this.#connected = false;
    this.#unsubscribe();
    this.#coalescer.cancel();
  }

  #subscribe(): void {
    if (this.#model === undefined || this.#off !== undefined) return;
    this.#off = this.#model.subscribe(() => this.#coalescer.schedule());
  }

  #unsubscribe(): void {
    this.#off?.();
    this.#off = undefined;
  }

  #pull(): void {
    const next = this.#model?.getSnapshot();
    if (next === this.snapshot) return;
    this.snapshot = next;
    this.#host.requestUpdate();
  }
}
