import type { Model } from "@pi-kit/protocol";
import { CANCELABLE_EVENT } from "./event-init.ts";

/** Fired by `<pi-model-picker>` before it switches model; cancel it to switch yourself. */
export class PiModelChangeEvent extends Event {
  /** The model chosen. */
  readonly model: Model;

  constructor(model: Model) {
    super("pi-model-change", CANCELABLE_EVENT);
    this.model = model;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    "pi-model-change": PiModelChangeEvent;
  }
}
