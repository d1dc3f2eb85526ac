/** Page side of resume.bench.ts: reopens a stopped session in a <pi-chat> and times it to paint. */
import { createWebSocketTransport, PiClient } from "@pi-kit/client";
import "@pi-kit/elements/define";

const frame = (): Promise<void> => new Promise((r) => requestAnimationFrame(() => r()));

/** All text under `root`, through shadow roots. */
function deepText(root: Node): string {
  let text = "";
  const walk = (node: Node): void => {
    if (node.nodeType === Node.TEXT_NODE) text += node.textContent;
    const shadow = (node as Element).shadowRoot;
    if (shadow) for (const child of shadow.childNodes) walk(child);
    for (const child of node.childNodes) walk(child);
  };
  walk(root);
  return text;
}

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
