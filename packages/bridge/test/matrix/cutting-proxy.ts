/**
 * A TCP proxy in front of a bridge that drops a client's connection in the middle of an answer, as
 * a lost network does (no close frame: 1006 at the client, a vanished socket at the bridge). It
 * reads the session from the handshake's request line and cuts, once per session, the first
 * connection on which the bridge's (unmasked, so plain-text) frames carry `cutAt`. Any client, in
 * any language, then has to reattach on its own to finish the answer.
 */
import { connect, createServer, type Server, type Socket } from "node:net";

/** A running proxy. */
export interface CuttingProxy {
  /** `ws://127.0.0.1:<port>`: the bridge's address through the proxy. */
  readonly wsBase: string;
  /** How many connections each session has opened through the proxy. */
  readonly connections: Map<string, number>;
  /** The sessions whose connection was cut. */
  readonly cut: Set<string>;
  close(): Promise<void>;
}

/** Starts a proxy to `target` (`host:port`) that cuts where the bridge sends `cutAt`. */
export async function startCuttingProxy(target: URL, cutAt: string): Promise<CuttingProxy> {
  const connections = new Map<string, number>();
  const cut = new Set<string>();
  const open = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    open.add(client).add(upstream);
    let session: string | undefined;
    let tail = "";
    const drop = (): void => {
      client.destroy();
      upstream.destroy();
    };
    client.on("data", (chunk: Buffer) => {
      if (session === undefined) {
        session = /^GET \/sessions\/([^/ ]+)\/ws/.exec(chunk.toString("latin1"))?.[1] ?? "";
        connections.set(session, (connections.get(session) ?? 0) + 1);
      }
      upstream.write(chunk);
    });
    upstream.on("data", (chunk: Buffer) => {
      if (session !== undefined && session !== "" && !cut.has(session)) {
        const text = tail + chunk.toString("latin1");
        if (text.includes(cutAt)) {
          cut.add(session);
          drop();
          return;
        }
        tail = text.slice(-cutAt.length);
      }
      client.write(chunk);
    });
    for (const socket of [client, upstream]) {
      socket.on("error", drop);
      socket.on("close", () => {
        open.delete(socket);
        drop();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    wsBase: `ws://127.0.0.1:${port}`,
    connections,
    cut,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
