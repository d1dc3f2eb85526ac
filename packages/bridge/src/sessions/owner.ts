/**
 * Whose a session is. The bridge's own sessions (static token) live directly in the sessions
 * directory; a ticket user's live in `_users/<user>/`, where `<user>` encodes the ticket's `sub`
 * into one safe directory name: no separator, no `.` or `..`, no NUL, never too long, and
 * different users never share one (even on a case-insensitive file system). `_users` is not a
 * session name, so the bridge's own history never lists it.
 */
import { createHash } from "node:crypto";

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

/** The registry key of session `name` of `owner`: its path relative to the sessions directory. */
export function sessionKey(owner: string, name: string): string {
  return owner === BRIDGE_OWNER ? name : `${owner}/${name}`;
}

/** The owner and name of a registry key. */
export function splitKey(key: string): { owner: string; name: string } {
  const slash = key.lastIndexOf("/");
  return slash === -1
    ? { owner: BRIDGE_OWNER, name: key }
    : { owner: key.slice(0, slash), name: key.slice(slash + 1) };
}
