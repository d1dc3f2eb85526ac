/**
 * A TCP proxy between the client and the bridge that can cut every connection, as a network loss
 * does (the client sees 1006, the bridge a dead peer), and refuse new ones until resumed.
 */
import { connect, createServer, type Server, type Socket } from "node:net";

/** A running proxy. */
export interface TcpProxy {
  /** `host:port` clients connect to. */
  readonly address: string;
  /** Destroys every open connection and refuses new ones. */
  sever(): void;
  /** Accepts connections again. */
  resume(): void;
  close(): Promise<void>;
}

/** Proxies 127.0.0.1:<free port> to `target` (`host:port`). */
export async function startTcpProxy(target: string): Promise<TcpProxy> {
  const [host, port] = target.split(":") as [string, string];
  const sockets = new Set<Socket>();
  let accepting = true;
  const server: Server = createServer((inbound) => {
    if (!accepting) {
      inbound.destroy();
      return;
    }
    const outbound = connect(Number(port), host);
    for (const socket of [inbound, outbound]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => {});
    }
    inbound.pipe(outbound);
    outbound.pipe(inbound);
    inbound.on("close", () => outbound.destroy());
    outbound.on("close", () => inbound.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (typeof address !== "object" || address === null) throw new Error("proxy not listening");
  return {
    address: `127.0.0.1:${address.port}`,
    sever() {
      accepting = false;
      for (const socket of sockets) socket.destroy();
    },
    resume() {
      accepting = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
