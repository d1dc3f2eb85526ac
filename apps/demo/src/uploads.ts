/**
 * The open conversation's uploads, for files that are not images in `<pi-chat>`'s composer: the
 * bridge's upload API on this origin with the page's token, one per connection (an upload names
 * this tab's socket: the bridge takes files only from the socket in control).
 */
import { BridgeUploads } from "@pi-kit/client";
import type { SessionConnection } from "./connection.ts";

let current: { connection: SessionConnection; token: string; uploads: BridgeUploads } | undefined;

/** The uploads of `connection`, the same object while the connection and the token stay. */
export function uploadsFor(
  connection: SessionConnection | undefined,
  token: string | undefined,
): BridgeUploads | undefined {
  if (connection === undefined || token === undefined) return undefined;
  if (current?.connection !== connection || current.token !== token) {
    const uploads = new BridgeUploads({
      baseUrl: location.origin,
      session: connection.name,
      token,
      connectionId: () => connection.transport.control?.you.id,
    });
    current = { connection, token, uploads };
  }
  return current.uploads;
}
