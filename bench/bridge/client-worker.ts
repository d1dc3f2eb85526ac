/**
 * The bridge benchmark's WebSocket clients, on their own thread: a browser never shares the
 * bridge's event loop, so neither may the client that times the records it receives.
 *
 * Driven by the bridge benchmarks through `client-thread.ts` (see {@link ClientRequest}). Each
 * received record is stamped with `performance.timeOrigin + performance.now()` (comparable across
 * threads) before anything else is done with it; the stamps stay here until asked for, then travel
 * in one message.
 */
import { parentPort } from "node:worker_threads";
import * as wsModule from "ws";

/** What the benchmark asks of this thread; every request gets one reply with the same `seq`. */
export type ClientRequest =
  | { op: "clock"; seq: number }
  | { op: "open"; seq: number; url: string; protocols: string[]; keep: boolean }
  | { op: "send"; seq: number; client: number; record: string }
  | { op: "run"; seq: number; client: number; record: string; until: string }
  | { op: "count"; seq: number; client: number }
  | { op: "stamps"; seq: number; client: number }
  | { op: "close"; seq: number; client: number };

/** The replies, by request. */
export interface ClientReplies {
  clock: { now: number };
  open: { client: number };
  send: Record<string, never>;
  /** `ms`: from sending `record` to receiving the `until` record; `count`: records received so far. */
  run: { ms: number; count: number };
  count: { count: number };
  stamps: { stamps: Float64Array };
  close: Record<string, never>;
}

/** The part of a `ws` client socket used here (`ws` 8; the installed typings are for 7). */
interface WsClient {
  on(event: "open", fn: () => void): void;
  on(event: "error", fn: (error: Error) => void): void;
  on(event: "message", fn: (data: Buffer, isBinary: boolean) => void): void;
  send(text: string): void;
  close(): void;
}
const WebSocket = (
  wsModule as unknown as { WebSocket: new (url: string, protocols: string[]) => WsClient }
).WebSocket;

const now = (): number => performance.timeOrigin + performance.now();

interface Client {
  readonly ws: WsClient;
  readonly stamps: number[];
  readonly keep: boolean;
  count: number;
  waiting: { prefix: string; resolve: () => void } | undefined;
}

const port = parentPort;
if (port === null) throw new Error("client-worker.ts runs as a worker thread");
const clients: Client[] = [];

/** Whether `data` is a record of `prefix`'s type, from its first bytes (pi writes `type` first). */
const startsWith = (data: Buffer, prefix: string): boolean =>
  data.length >= prefix.length && data.toString("latin1", 0, prefix.length) === prefix;

async function handle(request: ClientRequest): Promise<object> {
  switch (request.op) {
    case "clock":
      return { now: now() };
    case "open": {
      const ws = new WebSocket(request.url, request.protocols);
      const client: Client = { ws, stamps: [], keep: request.keep, count: 0, waiting: undefined };
      ws.on("message", (data) => {
        const at = now();
        // The bridge's own records (who controls) come from no pi record: not counted.
        if (startsWith(data, '{"type":"bridge_')) return;
        client.count++;
        if (client.keep) client.stamps.push(at);
        const waiting = client.waiting;
        if (waiting !== undefined && startsWith(data, waiting.prefix)) {
          client.waiting = undefined;
          waiting.resolve();
        }
      });
      await new Promise<void>((resolve, reject) => {
        ws.on("open", resolve);
        ws.on("error", reject);
      });
      clients.push(client);
      return { client: clients.length - 1 };
    }
    case "send":
      client(request.client).ws.send(request.record);
      return {};
    case "run": {
      const c = client(request.client);
      const settled = new Promise<void>((resolve) => {
        c.waiting = { prefix: `{"type":"${request.until}"`, resolve };
      });
      const start = now();
      c.ws.send(request.record);
      await settled;
      return { ms: now() - start, count: c.count };
    }
    case "count":
      return { count: client(request.client).count };
    case "stamps":
      return { stamps: Float64Array.from(client(request.client).stamps) };
    case "close":
      client(request.client).ws.close();
      return {};
  }
}

function client(index: number): Client {
  const c = clients[index];
  if (c === undefined) throw new Error(`no client ${index}`);
  return c;
}

port.on("message", (request: ClientRequest) => {
  handle(request).then(
    (reply) => {
      const stamps = (reply as { stamps?: Float64Array<ArrayBuffer> }).stamps;
      port.postMessage({ seq: request.seq, ...reply }, stamps ? [stamps.buffer] : []);
    },
    (error: unknown) => port.postMessage({ seq: request.seq, error: String(error) }),
  );
});
