/**
 * Drives pi on a pi-kit bridge from a Deno script: `deno run -A remote-deno.ts <url> <token>`,
 * with the URL and token `npm start` printed (for example http://127.0.0.1:8787 and the token).
 */
import { createWebSocketTransport, PiClient } from "@pi-kit/client";

const [url = "http://127.0.0.1:8787", token] = Deno.args;
const transport = createWebSocketTransport({ url: new URL("/sessions/deno/ws", url), token });
const client = await PiClient.connect(transport);
try {
  client.on("message_update", ({ assistantMessageEvent: e }) => {
    if (e.type === "text_delta") Deno.stdout.writeSync(new TextEncoder().encode(e.delta));
  });
  await client.promptAndWait("[[text Hello from Deno through the bridge]]");
  console.log();
} finally {
  await client.close();
}
