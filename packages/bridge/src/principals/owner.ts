/**
 * Whose a session is. The bridge's own sessions (static token) live directly in the sessions
 * directory; a ticket user's live in `_users/<user>/`, where `<user>` encodes the ticket's `sub`
 * into one safe directory name: no separator, no `.` or `..`, no NUL, never too long, and
 * different users never share one (even on a case-insensitive file system). `_users` is not a
 * session name, so the bridge's own history never lists it.
 */
import { createHash } from "node:crypto";
import { BridgeError, BridgeErrorCode } from "../errors/bridge-error.ts";
import { assertSessionName, isSessionName, SESSION_NAME_RULE } from "./session-name.ts";

/** The directory, in the sessions directory, holding one directory per ticket user. */
export const USERS_DIR = "_users";
/** The owner of the bridge's own sessions: the sessions directory itself. */
export const BRIDGE_OWNER = "";
/** Longest directory name kept readable; longer ones become a hash. */
const MAX_READABLE = 96;

/**
 * The owner (a path relative to the sessions directory) of ticket user `sub`. Letters a-z, digits,
 * `_` and `-` stay as they are; every other UTF-8 byte (capitals included) becomes `~XX`. A name
 * that would be longer than 96 characters becomes `~h` and its SHA-256 instead.
 */
export function userOwner(sub: string): string {
  let readable = "";
  for (const byte of new TextEncoder().encode(sub)) {
    const char = String.fromCharCode(byte);
    readable += /[a-z0-9_-]/.test(char)
      ? char
      : `~${byte.toString(16).toUpperCase().padStart(2, "0")}`;
    if (readable.length > MAX_READABLE) {
      readable = `~h${createHash("sha256").update(sub, "utf8").digest("hex")}`;
      break;
    }
  }
  return `${USERS_DIR}/${readable}`;
}

/** A ticket user's directory name, as {@link userOwner} makes it. */
const USER_PATTERN = /^(?:(?:[a-z0-9_-]|~[0-9A-F]{2})+|~h[0-9a-f]{64})$/;

/** Whether `owner` is the bridge's own or one {@link userOwner} can make. */
export function isOwner(owner: string): boolean {
  if (owner === BRIDGE_OWNER) return true;
  const [dir, user, ...rest] = owner.split("/");
  return dir === USERS_DIR && user !== undefined && rest.length === 0 && USER_PATTERN.test(user);
}

declare const sessionKeyBrand: unique symbol;

/**
 * A registry key: the path of a session relative to the sessions directory, made only by
 * {@link sessionKey} or {@link parseSessionKey}, which refuse every invalid part. A session name
 * has no `/` and never starts with `_`, and a user's directory name has no `/`, so a key splits
 * back into one owner and one name: two principals (the bridge, a ticket user) never make the
 * same key, whatever name they ask for.
 */
export type SessionKey = string & { readonly [sessionKeyBrand]: true };

/**
 * The registry key of session `name` of `owner`. Throws a `BridgeError`
 * (`invalid_session_name`) for a name that is not a session name, so a name is checked before
 * any lookup can use it.
 */
export function sessionKey(owner: string, name: string): SessionKey {
  assertSessionName(name);
  if (!isOwner(owner)) throw new Error(`Not an owner: ${JSON.stringify(owner)}`);
  return (owner === BRIDGE_OWNER ? name : `${owner}/${name}`) as SessionKey;
}

/** `key` as a {@link SessionKey}: a session name, or `_users/<user>/<name>`; else `undefined`. */
export function parseSessionKey(key: string): SessionKey | undefined {
  const { owner, name } = splitKey(key as SessionKey);
  return isSessionName(name) && isOwner(owner) ? (key as SessionKey) : undefined;
}

/**
 * Whether `key` is a session key: a session name, or `_users/<user>/<name>` (see `userOwner`).
 * Such a key is a safe path below the sessions directory.
 */
export function isSessionKey(key: string): boolean {
  return parseSessionKey(key) !== undefined;
}

/** `key` as a {@link SessionKey}; throws a `BridgeError` (`invalid_session_name`) for anything else. */
export function assertSessionKey(key: string): SessionKey {
  const parsed = parseSessionKey(key);
  if (parsed === undefined)
    throw new BridgeError(BridgeErrorCode.InvalidSessionName, SESSION_NAME_RULE);
  return parsed;
}

/** The owner and name of a registry key. */
export function splitKey(key: SessionKey): { owner: string; name: string } {
  const slash = key.lastIndexOf("/");
  return slash === -1
    ? { owner: BRIDGE_OWNER, name: key }
    : { owner: key.slice(0, slash), name: key.slice(slash + 1) };
}
