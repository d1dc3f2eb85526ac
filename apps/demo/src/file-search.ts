/**
 * The open conversation's workspace file search, for `@` mentions in `<pi-chat>`'s composer: the
 * bridge's file search API on this origin with the page's token, one per conversation.
 */
import { BridgeFileSearch } from "@pi-kit/client";

let current: { name: string; token: string; search: BridgeFileSearch } | undefined;

/** The file search of conversation `name`, the same object while `name` and `token` stay. */
export function fileSearchFor(
  name: string | undefined,
  token: string | undefined,
): BridgeFileSearch | undefined {
  if (name === undefined || token === undefined) return undefined;
  if (current?.name !== name || current.token !== token) {
    const search = new BridgeFileSearch({ baseUrl: location.origin, session: name, token });
    current = { name, token, search };
  }
  return current.search;
}
