/**
 * Page side of join.bench.ts: connects a <pi-chat> to a session (pi streaming in it, or idle) and
 * times until the text expected is painted.
 */
import { createWebSocketTransport, PiClient } from "@pi-kit/client";
import "@pi-kit/elements/define";
import { deepText, frame } from "./page-text.ts";

/**
 * Connects a client to `url`, shows it in a <pi-chat>, and resolves once `expected` is painted:
 * the ms until the client was connected (its handshake and first load done) and until painted.
 */
async function join(
  url: string,
  token: string,
  expected: string,
): Promise<{ connectedMs: number; paintedMs: number }> {
  document.body.replaceChildren();
  const start = performance.now();
  const client = await PiClient.connect(createWebSocketTransport({ url, token, reconnect: false }));
  const connectedMs = performance.now() - start;
  const chat = document.createElement("pi-chat");
  chat.style.height = "800px";
  chat.client = client;
  document.body.append(chat);
  while (!deepText(chat).includes(expected)) await frame();
  await frame();
  const paintedMs = performance.now() - start;
  await client.close();
  return { connectedMs, paintedMs };
}

Object.assign(window, { join, benchReady: true });
