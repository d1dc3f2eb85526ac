/**
 * What one request may do: whose sessions it reaches (the bridge's own with the static token, a
 * ticket user's with a ticket), which of them, and whether it may change anything.
 */
import { BRIDGE_OWNER } from "./owner.ts";

/** The sessions a request reaches and what it may do to them. */
export interface Access {
  /** Whose sessions: `""` for the bridge's own, else `_users/<user>` (see `userOwner`). */
  readonly owner: string;
  /** Whether session `name` of the owner is open to it. */
  readonly allows: (name: string) => boolean;
  /** Whether only some of the owner's sessions are open to it (the history lists only those). */
  readonly limited: boolean;
  /** It may only watch: no commands, dialog answers, creation, renaming, stopping or deleting. */
  readonly readOnly: boolean;
  /** When the credential expires (a ticket's `exp`, ms since the epoch); `undefined` never. */
  readonly expiresAt?: number;
}

/** The static token's access: every session of the bridge's own. */
export const BRIDGE_ACCESS: Access = {
  owner: BRIDGE_OWNER,
  allows: () => true,
  limited: false,
  readOnly: false,
};

/** What the forwarding node authenticated the caller as. */
export interface ForwardedIdentity {
  /** Whose sessions (see {@link Access.owner}). */
  readonly owner: string;
  /** The one session the forwarded request is for. */
  readonly name: string;
  /** The caller may only watch. */
  readonly readOnly: boolean;
  /** When the caller's credential expires (ms since the epoch), if it does. */
  readonly expiresAt?: number;
  /** The caller's `Origin` header, if it sent one. */
  readonly origin?: string;
}
