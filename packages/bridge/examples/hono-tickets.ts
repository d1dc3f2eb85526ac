import { join } from "node:path";
import { serve } from "@hono/node-server";
import { createBridge, generateToken } from "@pi-kit/bridge";
import { nodeWebSocket } from "@pi-kit/bridge/node";
import { BridgeSessionHistory, PiClient } from "@pi-kit/client";
import { createNodeWebSocketTransport } from "@pi-kit/client/ws-node";
import { piCommand, sessionHostOptions, startModelServer } from "@pi-kit/testing";
import { Hono } from "hono";
import { getCookie } from "hono/cookie";
import { SignJWT } from "jose";

// The scripted model stands in for a real provider (see serve.ts for your own pi).
const model = await startModelServer();
const pi = piCommand({ version: "1", baseUrl: model.baseUrl });

// The app and the bridge share this secret (32+ random bytes); nobody else ever sees it.
const ticketSecret = new TextEncoder().encode(generateToken());
const ws = nodeWebSocket();
const bridge = createBridge(
  {
    ...sessionHostOptions(pi),
    token: generateToken(),
    tickets: { secret: ticketSecret },
    // Each session works in a directory of its own: users never share files.
    workspacesDir: join(pi.tempRoot, "workspaces"),
  },
  ws.runtime,
);

// The app knows who is logged in (a stand-in for your own login), and mints their ticket.
const logins = new Map([["cookie-of-ada", "ada@example.com"]]);
const app = new Hono();
app.get("/api/pi-ticket", async (c) => {
  const user = logins.get(getCookie(c, "session") ?? "");
  if (user === undefined) return c.text("Log in first", 401);
  const ticket = await new SignJWT({ sessionPrefix: "" }) // every session of this user
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(user)
    .setAudience("pi-kit-bridge")
    .setExpirationTime("2m") // short-lived: the client asks again for each connection
    .sign(ticketSecret);
  return c.text(ticket);
});
app.route("/pi", bridge.app);
const server = serve({ fetch: app.fetch, port: 0, websocket: { server: ws.server } });
await new Promise((resolve) => server.once("listening", resolve));
const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

// In the browser the cookie goes along by itself: `fetch("/api/pi-ticket")`.
const ticket = async (): Promise<string> => {
  const response = await fetch(`${base}/api/pi-ticket`, {
    headers: { cookie: "session=cookie-of-ada" },
  });
  return response.text();
};
console.log(`without a login: ${(await fetch(`${base}/api/pi-ticket`)).status}`);
const transport = await createNodeWebSocketTransport({
  url: `${base.replace(/^http/, "ws")}/pi/sessions/notes/ws`,
  token: ticket,
});
const client = await PiClient.connect(transport);
try {
  await client.promptAndWait("Hello from Ada");
  console.log(`pi answered: ${await client.getLastAssistantText()}`);
  const history = new BridgeSessionHistory({ baseUrl: `${base}/pi`, token: ticket });
  const { sessions } = await history.list();
  console.log(`Ada's sessions: ${sessions.map((s) => s.name).join(", ")}`);
} finally {
  await client.close();
  await bridge.close();
  server.close();
  await model.close();
  pi.dispose();
}
