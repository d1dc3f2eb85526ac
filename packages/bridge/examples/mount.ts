import { serve } from "@hono/node-server";
import { createBridge, defaultSessionsDir, generateToken } from "@pi-kit/bridge";
import { nodeWebSocket } from "@pi-kit/bridge/node";
import { Hono } from "hono";

const ws = nodeWebSocket({ maxRecordBytes: 1024 * 1024 });
const token = generateToken();
const bridge = createBridge(
  {
    pi: { command: "pi", args: ["--mode", "rpc"] },
    token,
    sessionsDir: defaultSessionsDir(), // ~/.local/state/pi-kit/bridge/sessions, private
  },
  ws.runtime,
);
const app = new Hono().route("/pi", bridge.app);
app.get("/", (c) => c.text("my app"));
const server = serve({
  fetch: app.fetch,
  port: 0,
  hostname: "127.0.0.1",
  websocket: { server: ws.server },
});
server.once("listening", async () => {
  const { port } = server.address() as { port: number };
  // Sessions (and their pi) start when a socket connects to /pi/sessions/<name>/ws.
  const response = await fetch(`http://127.0.0.1:${port}/pi/api/sessions`, {
    headers: { authorization: `Bearer ${token}` },
  });
  console.log(`GET /pi/api/sessions: ${response.status}`, await response.json());
  await bridge.close();
  server.close();
});
