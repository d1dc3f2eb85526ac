/**
 * @module
 * Zero-dependency types, framing and validation for pi's RPC mode.
 */
export { ProtocolError, ProtocolErrorCode, type ProtocolErrorOptions } from "./errors.ts";
export {
  formatTranscriptEntry,
  parseTranscript,
  type TranscriptDirection,
  type TranscriptEntry,
} from "./transcript.ts";
