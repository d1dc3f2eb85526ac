/** Every element `@pi-kit/elements/define` registers, a WebSocket client, Lit (reported by bundle.bench.ts for information). */
import { createWebSocketTransport, PiClient } from "@pi-kit/client";
import "@pi-kit/elements/define";

const chat = document.createElement("pi-chat");
document.body.append(chat);
chat.client = new PiClient(createWebSocketTransport({ url: "ws://127.0.0.1:1/pi" }));
