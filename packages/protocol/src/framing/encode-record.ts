import { ProtocolError, ProtocolErrorCode } from "../errors/protocol-error.ts";

/**
 * Serialises one outbound record: JSON plus LF.
 *
 * Refuses, with a `ProtocolError` (code `unencodable`), anything that is not a plain JSON object
 * at the top level: pi crashes on a `null` line and answers arrays and scalars with junk.
 * `JSON.stringify` escapes every control character, so the record can never contain a raw LF.
 *
 * @example
 * ```ts
 * stdin.write(encodeRecord({ id: "1", type: "get_state" }));
 * ```
 */
export function encodeRecord(value: unknown): string {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw unencodable(`A record must be a JSON object, got ${describe(value)}`);
  }
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch (cause) {
    throw unencodable("The record cannot be serialised as JSON", cause);
  }
  // A toJSON() can still turn the object into null, an array or nothing at all.
  if (json === undefined || json.charCodeAt(0) !== 0x7b /* { */) {
    throw unencodable(`A record must serialise to a JSON object, got ${json ?? "nothing"}`);
  }
  return `${json}\n`;
}

function unencodable(message: string, cause?: unknown): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.Unencodable, message, { cause });
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value;
}
