import type { SlashCommand } from "@pi-kit/protocol";
import { CANCELABLE_EVENT } from "./event-init.ts";

/**
 * Fired by `<pi-slash-menu>` when a command is chosen. Unless cancelled, an attached `input` gets
 * `/name ` in place of what was typed (and an `input` event); a host that forwards keys instead
 * replaces the text itself.
 */
export class PiSlashSelectEvent extends Event {
  /** The chosen command. */
  readonly command: SlashCommand;

  constructor(command: SlashCommand) {
    super("pi-slash-select", CANCELABLE_EVENT);
    this.command = command;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    "pi-slash-select": PiSlashSelectEvent;
  }
}
