import {
  BRIDGE_ERROR_STATUS,
  BridgeErrorCode,
  type BridgeErrorStatus,
} from "@pi-kit/protocol/bridge";

// The codes are the bridge protocol's; the bridge's own modules take them with the error class.
export { BridgeErrorCode, type BridgeErrorStatus };

/** The one error class of the bridge: a `code` to branch on and the underlying `cause`. */
export class BridgeError extends Error {
  /** What went wrong. */
  readonly code: BridgeErrorCode;

  constructor(code: BridgeErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "BridgeError";
    this.code = code;
  }

  /** The HTTP status for this error. */
  get status(): BridgeErrorStatus {
    return BRIDGE_ERROR_STATUS[this.code];
  }
}
