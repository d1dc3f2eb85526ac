/**
 * The page measured by bundle.bench.ts, as the issue states it: the chat page's elements
 * (chat-page-elements.ts), a WebSocket client, Lit; `bundle-page-all.ts` measures everything
 * `@pi-kit/elements/define` registers.
 */
import { createWebSocketTransport, PiClient } from "@pi-kit/client";
import "./chat-page-elements.ts";

const chat = document.createElement("pi-chat");
document.body.append(chat);
chat.client = new PiClient(createWebSocketTransport({ url: "ws://127.0.0.1:1/pi" }));
