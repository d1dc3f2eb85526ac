/**
 * A scripted OpenAI-compatible model server (chat completions streamed over SSE) on 127.0.0.1.
 * Built on `node:http` so it runs on Node, Deno and Bun.
 * @module
 */

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { completionChunks } from "./chunks.ts";
import { builtinScenarios } from "./scenarios.ts";
import { lastUserPrompt, scriptReply } from "./script.ts";
import type { ChatRequest, RecordedRequest, ScenarioHandler } from "./types.ts";

/** Model ids served by default: one plain model and one that pi treats as reasoning-capable. */
export const DEFAULT_MODEL_IDS: readonly string[] = ["scripted", "scripted-reasoning"];

/** Options of {@link startModelServer}. */
export interface ModelServerOptions {
  /** Interface to listen on (default `127.0.0.1`). */
  readonly host?: string;
  /** Port (default 0: any free port). */
  readonly port?: number;
  /** Extra directives, by lower-case name; they override built-ins of the same name. */
  readonly scenarios?: Readonly<Record<string, ScenarioHandler>>;
  /**
   * Whole prompts (trimmed) answered as the directives they map to: `{"Write a long story
   * slowly": "[[slow 200ms x 20]]"}` lets a demo offer natural language for scripted behaviours.
   */
  readonly prompts?: Readonly<Record<string, string>>;
  /** Model ids listed by `GET /v1/models` (default {@link DEFAULT_MODEL_IDS}). */
  readonly models?: readonly string[];
}

/** A running scripted model server. */
export interface ModelServer {
  /** Origin, e.g. `http://127.0.0.1:40123`. */
  readonly url: string;
  /** OpenAI base URL to give pi: `${url}/v1`. */
  readonly baseUrl: string;
  /** The port actually bound. */
  readonly port: number;
  /** Every request served so far, oldest first. */
  readonly requests: readonly RecordedRequest[];
  /** Forgets recorded requests, the per-prompt attempt counters and the completion sequence. */
  reset(): void;
  /** Stops listening and drops open streams. */
  close(): Promise<void>;
  /** Same as {@link ModelServer.close}, for `await using`. */
  [Symbol.asyncDispose](): Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(body),
  });
  res.end(body);
}

function isChatRequest(value: unknown): value is ChatRequest {
  return (
    typeof value === "object" &&
    value !== null &&
    Array.isArray((value as { messages?: unknown }).messages)
  );
}

/** Starts a scripted model server; see the README for the directive language. */
export async function startModelServer(options: ModelServerOptions = {}): Promise<ModelServer> {
  const scenarios = { ...builtinScenarios, ...options.scenarios };
  const modelIds = options.models ?? DEFAULT_MODEL_IDS;
  const requests: RecordedRequest[] = [];
  const attempts = new Map<string, number>();
  const sockets = new Set<Socket>();
  const started = Date.now();
  let completions = 0;

  const record = (req: IncomingMessage, body: ChatRequest | undefined, status: number) => {
    const path = (req.url ?? "/").split("?")[0] as string;
    requests.push({ method: req.method ?? "GET", path, body, status, t: Date.now() - started });
  };

  async function streamCompletion(req: IncomingMessage, res: ServerResponse, body: ChatRequest) {
    const prompt = lastUserPrompt(body);
    const lastIsUser = body.messages.at(-1)?.role === "user";
    const attempt = lastIsUser ? (attempts.get(prompt) ?? 0) : 0;
    if (lastIsUser) attempts.set(prompt, attempt + 1);
    const reply = scriptReply(body, scenarios, attempt, options.prompts);
    if (reply.failure) {
      record(req, body, reply.failure.status);
      const message = reply.failure.message ?? `Scripted ${reply.failure.status}`;
      sendJson(res, reply.failure.status, { error: { message, type: "server_error", code: null } });
      return;
    }
    record(req, body, 200);
    const n = ++completions;
    const chunks = completionChunks(reply, {
      id: `chatcmpl-${n}`,
      model: body.model ?? modelIds[0] ?? "scripted",
      toolCallPrefix: `call_${n}`,
      // Deterministic, not a real token count: keeps recorded transcripts stable.
      promptTokens: body.stream_options?.include_usage ? 10 * body.messages.length : undefined,
    });
    let closed = false;
    res.on("close", () => {
      closed = true;
    });
    res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      connection: "keep-alive",
    });
    for (const chunk of chunks) {
      if (reply.chunkDelayMs) await sleep(reply.chunkDelayMs);
      if (closed) return;
      res.write(`data: ${JSON.stringify(chunk)}\n\n`);
    }
    if (!closed) res.end("data: [DONE]\n\n");
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method === "GET" && (path === "/v1/models" || path === "/models")) {
      record(req, undefined, 200);
      const data = modelIds.map((id) => ({ id, object: "model", created: 0, owned_by: "pi-kit" }));
      sendJson(res, 200, { object: "list", data });
      return;
    }
    if (
      req.method === "POST" &&
      (path === "/v1/chat/completions" || path === "/chat/completions")
    ) {
      let body: unknown;
      try {
        body = JSON.parse(await readBody(req));
      } catch {
        body = undefined;
      }
      if (!isChatRequest(body)) {
        record(req, undefined, 400);
        sendJson(res, 400, { error: { message: "Expected a JSON body with messages[]" } });
        return;
      }
      await streamCompletion(req, res, body);
      return;
    }
    await readBody(req);
    record(req, undefined, 404);
    sendJson(res, 404, { error: { message: `No route for ${req.method} ${path}` } });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      // A scenario threw: answer 500 so the failure shows up in the test, not as a hang.
      if (!res.headersSent) sendJson(res, 500, { error: { message: String(error) } });
      else res.destroy();
    });
  });
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === "string") {
    throw new Error("Model server did not bind a TCP port");
  }
  const host = options.host ?? "127.0.0.1";
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${address.port}`;

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const socket of sockets) socket.destroy();
      // Deno's node:http may not report sockets through "connection".
      server.closeAllConnections?.();
    });
    return closing;
  };

  return {
    url,
    baseUrl: `${url}/v1`,
    port: address.port,
    requests,
    reset() {
      requests.length = 0;
      attempts.clear();
      completions = 0;
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
