import type { OutgoingMessage } from "./delivery.ts";

/** A waiting message as kept in the browser: what the user sent, for the conversation it was sent in. */
export interface StoredMessage {
  readonly text: string;
  readonly images: OutgoingMessage["images"];
  readonly mode: OutgoingMessage["mode"];
}

const PREFIX = "pi-kit:outbox:";
// Keys this page wrote, so a conversation whose messages all went is cleared.
const written = new Set<string>();

/**
 * The messages of conversation `key` still waiting when the page was left. Kept in
 * sessionStorage: they survive a reload of this tab, and no other tab sends them a second time.
 */
export function loadWaiting(key: string): StoredMessage[] {
  try {
    const stored: unknown = JSON.parse(sessionStorage.getItem(PREFIX + key) ?? "[]");
    return Array.isArray(stored) ? stored.filter((m) => typeof m?.text === "string") : [];
  } catch {
    return [];
  }
}

/** Keeps the waiting messages of each conversation (`key`), dropping those pi took. */
export function saveWaiting(waiting: readonly OutgoingMessage[]): void {
  const byKey = new Map<string, StoredMessage[]>([...written].map((key) => [key, []]));
  for (const { key, text, images, mode } of waiting)
    if (key !== undefined) byKey.set(key, [...(byKey.get(key) ?? []), { text, images, mode }]);
  for (const [key, messages] of byKey) {
    try {
      if (messages.length === 0) {
        sessionStorage.removeItem(PREFIX + key);
        written.delete(key);
      } else {
        sessionStorage.setItem(PREFIX + key, JSON.stringify(messages));
        written.add(key);
      }
    } catch {
      // Storage full or blocked: the message still waits in the page, as without a key.
    }
  }
}
