import type { ImageContent } from "@pi-kit/protocol";

/** How every pi element's event travels: it bubbles, and out of shadow roots, up to the page. */
export const PI_EVENT: EventInit = { bubbles: true, composed: true };

/** A pi event the page may cancel (`preventDefault()`) to do the thing itself. */
export const CANCELABLE_EVENT: EventInit = { ...PI_EVENT, cancelable: true };

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
    super("pi-send", CANCELABLE_EVENT);
    this.text = text;
    this.images = images;
    this.mode = mode;
  }
}

/** Fired by `<pi-chat>` before it aborts the run (Esc or the stop button); cancelable. */
export class PiAbortEvent extends Event {
  constructor() {
    super("pi-abort", CANCELABLE_EVENT);
  }
}

/** Fired by `<pi-chat>` before it takes the queued messages back into the composer; cancelable. */
export class PiRestoreQueueEvent extends Event {
  constructor() {
    super("pi-restore-queue", CANCELABLE_EVENT);
  }
}

/** Fired when an action the element took through the client failed. */
export class PiErrorEvent extends Event {
  /** What failed: `send`, `abort`, `restore-queue`, `take-control` or `connect`. */
  readonly action: string;
  /** The error the client threw. */
  readonly error: unknown;

  constructor(action: string, error: unknown) {
    super("pi-error", PI_EVENT);
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
