import { PI_EVENT } from "./event-init.ts";

/** Fired by `<pi-fork-picker>` after pi forked: `text` is the message to put back in the editor. */
export class PiForkedEvent extends Event {
  readonly entryId: string;
  /** The forked message's text, meant for the composer. */
  readonly text: string;
  /** True when an extension cancelled the fork. */
  readonly cancelled: boolean;

  constructor(entryId: string, text: string, cancelled: boolean) {
    super("pi-forked", PI_EVENT);
    this.entryId = entryId;
    this.text = text;
    this.cancelled = cancelled;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    "pi-forked": PiForkedEvent;
  }
}
