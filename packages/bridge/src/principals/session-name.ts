/**
 * Session names. A name becomes a directory name and a part of a registry key, so it has no
 * separator of any kind (`/`, `\`, `%`), no leading dot or underscore (`_users` is never a name),
 * and a bounded length.
 */
import { BridgeError, BridgeErrorCode } from "../errors/bridge-error.ts";

/** A session name: it becomes a directory name, so no separators, dots first or `..`. */
const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** Whether `name` is a valid session name (1-64 of A-Z a-z 0-9 _ -, starting alphanumeric). */
export function isSessionName(name: string): boolean {
  return NAME_PATTERN.test(name);
}

/** The message of an `invalid_session_name` error. */
export const SESSION_NAME_RULE =
  "A session name is 1-64 characters of A-Z a-z 0-9 _ -, starting with a letter or digit";

/** Throws a `BridgeError` (`invalid_session_name`) unless `name` is a valid session name. */
export function assertSessionName(name: string): void {
  if (!isSessionName(name)) {
    throw new BridgeError(BridgeErrorCode.InvalidSessionName, SESSION_NAME_RULE);
  }
}
