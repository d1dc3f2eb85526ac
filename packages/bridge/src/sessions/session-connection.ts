import type { ControlledConnection } from "./session-control.ts";

/** What a session needs from a socket attached to it. */
export interface SessionConnection extends ControlledConnection {
  /** Bytes queued on the socket and not yet sent. */
  bufferedAmount(): number;
  /** Resolves once the socket is below the high-water mark, closed, or closed for stalling. */
  drained(): Promise<void>;
  /** Closes the socket with a code and reason. */
  close(code: number, reason: string): void;
}
