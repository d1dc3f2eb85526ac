/**
 * The bridge benchmarks' side of `client-worker.ts`: a worker thread of WebSocket clients, asked
 * over `postMessage`, so the clients never share the bridge's event loop.
 */
import { Worker } from "node:worker_threads";
import type { ClientReplies, ClientRequest } from "./client-worker.ts";

/** The fields of a request, without what {@link ClientThread.ask} fills in. */
type Fields<K extends keyof ClientReplies> = Omit<Extract<ClientRequest, { op: K }>, "op" | "seq">;

/** A thread of WebSocket clients (see `client-worker.ts`), as a separate device would run them. */
export interface ClientThread {
  /** Sends one request and resolves with its reply; rejects with the thread's error. */
  ask<K extends keyof ClientReplies>(op: K, fields: Fields<K>): Promise<ClientReplies[K]>;
  /** Opens a client on a bridge session; `keep` stamps every record it receives. Resolves with its id. */
  open(url: string, token: string, keep: boolean): Promise<number>;
  /** Stops the thread. */
  terminate(): Promise<number>;
}

/** Starts a client thread. */
export function clientThread(): ClientThread {
  const worker = new Worker(new URL("./client-worker.ts", import.meta.url));
  let nextSeq = 1;
  const replies = new Map<number, (reply: { error?: string }) => void>();
  worker.on("message", (reply: { seq: number; error?: string }) => {
    replies.get(reply.seq)?.(reply);
    replies.delete(reply.seq);
  });
  function ask<K extends keyof ClientReplies>(op: K, fields: Fields<K>): Promise<ClientReplies[K]> {
    const seq = nextSeq++;
    return new Promise((resolve, reject) => {
      replies.set(seq, (reply) =>
        reply.error === undefined
          ? resolve(reply as ClientReplies[K])
          : reject(new Error(reply.error)),
      );
      worker.postMessage({ op, seq, ...fields });
    });
  }
  return {
    ask,
    open: async (url, token, keep) =>
      (await ask("open", { url, protocols: ["pi-kit.v1", `pi-kit.token.${token}`], keep })).client,
    terminate: () => worker.terminate(),
  };
}
