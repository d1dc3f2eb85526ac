/**
 * Drives pi on a pi-kit bridge from a Bun script: `bun remote-bun.ts <url> <token>`, with the
 * URL and token `npm start` printed (for example http://127.0.0.1:8787 and the token).
 */
import { createWebSocketTransport, PiClient } from "@pi-kit/client";

const [url = "http://127.0.0.1:8787", token] = process.argv.slice(2);
const transport = createWebSocketTransport({ url: new URL("/sessions/bun/ws", url), token });
const client = await PiClient.connect(transport);
try {
  client.on("message_update", ({ assistantMessageEvent: e }) => {
    if (e.type === "text_delta") process.stdout.write(e.delta);
  });
  await client.promptAndWait("[[text Hello from Bun through the bridge]]");
  console.log();
} finally {
  await client.close();
}
