/** Page side of resume.bench.ts: reopens a stopped session in a <pi-chat> and times it to paint. */
import { createWebSocketTransport, PiClient } from "@pi-kit/client";
import "@pi-kit/elements/define";
import { deepText, frame } from "./page-text.ts";

/**
 * Connects a client to `url` (which makes the bridge start pi on the session's file), shows it in a
 * <pi-chat>, and resolves once `lastText` (from the last message) is painted: ms and messages.
 */
async function reopen(
  url: string,
  token: string,
  lastText: string,
): Promise<{ ms: number; messages: number }> {
  document.body.replaceChildren();
  const start = performance.now();
  const client = await PiClient.connect(createWebSocketTransport({ url, token, reconnect: false }));
  const chat = document.createElement("pi-chat");
  chat.style.height = "800px";
  chat.client = client;
  document.body.append(chat);
  while (!deepText(chat).includes(lastText)) await frame();
  await frame();
  const ms = performance.now() - start;
  const messages = client.session.getSnapshot().messages.length;
  await client.close();
  return { ms, messages };
}

Object.assign(window, { reopen, benchReady: true });
