import type { ImageContent } from "@pi-kit/protocol";

/** How a composed message goes out: a new prompt, or queued while the agent works. */
export type SendMode = "prompt" | "steer" | "followUp";

/**
 * Fired by `<pi-chat>` before it sends a message. Cancel it (`preventDefault()`) to send it
 * yourself, for example when the element only has a session model and no client.
 */
export class PiSendEvent extends Event {
  /** The text typed. */
  readonly text: string;
  /** Attached images, base64 without a `data:` prefix. */
  readonly images: readonly ImageContent[];
  /** Prompt when idle; steer or follow-up while the agent streams. */
  readonly mode: SendMode;

  constructor(text: string, images: readonly ImageContent[], mode: SendMode) {
    super("pi-send", { bubbles: true, composed: true, cancelable: true });
    this.text = text;
    this.images = images;
    this.mode = mode;
  }
}

/** Fired by `<pi-chat>` before it aborts the run (Esc or the stop button); cancelable. */
export class PiAbortEvent extends Event {
  constructor() {
    super("pi-abort", { bubbles: true, composed: true, cancelable: true });
  }
}

/** Fired by `<pi-chat>` before it takes the queued messages back into the composer; cancelable. */
export class PiRestoreQueueEvent extends Event {
  constructor() {
    super("pi-restore-queue", { bubbles: true, composed: true, cancelable: true });
  }
}

/** Fired when an action the element took through the client failed. */
export class PiErrorEvent extends Event {
  /** What failed: `send`, `abort`, `restore-queue`, `take-control` or `connect`. */
  readonly action: string;
  /** The error the client threw. */
  readonly error: unknown;

  constructor(action: string, error: unknown) {
    super("pi-error", { bubbles: true, composed: true });
    this.action = action;
    this.error = error;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    "pi-send": PiSendEvent;
    "pi-abort": PiAbortEvent;
    "pi-restore-queue": PiRestoreQueueEvent;
    "pi-error": PiErrorEvent;
  }
}
