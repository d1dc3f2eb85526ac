import type { PermissionMode } from "@pi-kit/client";
import { CANCELABLE_EVENT } from "./event-init.ts";

/** Fired by `<pi-permission-picker>` before it changes the mode; cancel it to change it yourself. */
export class PiPermissionChangeEvent extends Event {
  /** The mode chosen. */
  readonly mode: PermissionMode;

  constructor(mode: PermissionMode) {
    super("pi-permission-change", CANCELABLE_EVENT);
    this.mode = mode;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    "pi-permission-change": PiPermissionChangeEvent;
  }
}
