/**
 * The end-to-end benchmark's baseline without the bridge: a bare WebSocket server that starts one
 * pi per connection as a child process and passes records through, one per text message, as the
 * bridge sends them: the transport the page uses is the same, the bridge's work is not there.
 */
import type { AddressInfo } from "node:net";
import { type ChildProcessOptions, spawnNode } from "@pi-kit/client/node";
import * as wsModule from "ws";

// ws 8 names it WebSocketServer; the installed types (ws 7) call the same class Server.
const { WebSocketServer } = wsModule as unknown as { WebSocketServer: typeof wsModule.Server };

/** A listening pass-through: `ws://…/<name>` starts pi with `E2E_NAME=<name>`. */
export interface PassThrough {
  readonly url: string;
  close(): Promise<void>;
}

/** Serves pi as `pi` says, each connection's own, on a free loopback port. */
export async function servePassThrough(pi: ChildProcessOptions): Promise<PassThrough> {
  const server = new WebSocketServer({
    host: "127.0.0.1",
    port: 0,
    handleProtocols: (offered: string[] | Set<string>) =>
      [...offered].includes("pi-kit.v1") ? "pi-kit.v1" : false,
  });
  const children = new Set<{ close(): Promise<unknown> }>();
  server.on("connection", (socket, request) => {
    // The path names pi; the query (the transport's viewer key) is the bridge's business.
    const name = decodeURIComponent(
      new URL(request.url ?? "/", "ws://localhost").pathname.slice(1),
    );
    const started = spawnNode({ ...pi, env: { ...pi.env, E2E_NAME: name } }).then((child) => {
      children.add(child);
      return { child, writer: child.writable.getWriter() };
    });
    // Records the page sends before pi has started wait for it, in order.
    socket.on("message", (data) => {
      void started.then(({ writer }) => writer.write(`${String(data)}\n`)).catch(() => {});
    });
    socket.on("close", () => void started.then(({ child }) => child.close()));
    void started.then(async ({ child }) => {
      const reader = child.readable.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        for (const frame of value) if (typeof frame === "string") socket.send(frame);
      }
      socket.close();
    });
  });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}`,
    close: async () => {
      await Promise.all([...children].map((c) => c.close()));
      // ws closes its server only once every socket is gone.
      for (const socket of server.clients) socket.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
