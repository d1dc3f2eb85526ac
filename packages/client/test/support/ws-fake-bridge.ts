/**
 * A tiny in-process stand-in for the bridge (`ws` WebSocketServer, which runs on Node, Deno and
 * Bun): token in the subprotocol, one JSONL record per text message, a scripted pi session that
 * outlives connections, pending dialogs re-sent on re-attach, and drops on demand.
 */
import type { IncomingMessage } from "node:http";
import { type WebSocket, WebSocketServer } from "ws";
import type { WebSocketConstructor } from "../../src/index.ts";
import { loadWebSocket } from "../../src/ws-node.ts";

/** A command as the client sent it. */
export interface Command {
  readonly type: string;
  readonly id?: string;
  readonly [key: string]: unknown;
}

/** Answers a command; return records to send (or `undefined`: the default answer applies). */
export type Handler = (command: Command, bridge: FakeBridge) => unknown[] | undefined;

/** One accepted or refused upgrade, as the server saw it. */
export interface Upgrade {
  readonly url: string;
  readonly protocols: readonly string[];
}

const TOKEN = "s3cret-TOKEN_1";

/** The WebSocket class for this runtime: the global one, or `ws` on Node 20. */
export function socketClass(): Promise<WebSocketConstructor> {
  return loadWebSocket();
}

/** The scripted session behind a fake bridge. */
export class FakeBridge {
  static readonly token = TOKEN;
  readonly upgrades: Upgrade[] = [];
  /** Every text message received, per connection (index 0 is the first connection). */
  readonly received: string[][] = [];
  readonly handlers = new Map<string, Handler>();
  /** pi's transcript: what `get_messages` returns. */
  messages: unknown[] = [];
  /** pi's entries (1.x): what `get_entries` returns. */
  entries: { type: string; id: string; parentId: string | null; [key: string]: unknown }[] = [];
  streaming = false;
  /** pi's session id, as `get_state` reports it. */
  sessionId = "s1";
  /** Dialog requests pi still waits for, re-sent on every new connection. */
  readonly pendingDialogs = new Map<string, Record<string, unknown>>();
  /** Accepts another token than {@link FakeBridge.token}, e.g. tickets; none by default. */
  acceptToken: (token: string) => boolean = () => false;
  /** Refuse new connections (HTTP 503 on the upgrade) while false. */
  accepting = true;
  readonly version: "1" | "0.73";
  readonly #server: WebSocketServer;
  #socket: WebSocket | undefined;
  #nextEntry = 0;
  #waiters: Array<{ type: string; resolve: (command: Command) => void }> = [];

  private constructor(server: WebSocketServer, version: "1" | "0.73") {
    this.#server = server;
    this.version = version;
    server.on("connection", (socket: WebSocket, request: IncomingMessage) =>
      this.#connected(socket, request),
    );
  }

  /** Starts a fake bridge on 127.0.0.1 with a free port. */
  static async start(version: "1" | "0.73" = "1"): Promise<FakeBridge> {
    let bridge: FakeBridge | undefined;
    const server = await new Promise<WebSocketServer>((resolve, reject) => {
      const s: WebSocketServer = new WebSocketServer(
        {
          host: "127.0.0.1",
          port: 0,
          // The bridge picks pi-kit.v1 and never echoes the token entry.
          handleProtocols: (protocols) => (protocols.has("pi-kit.v1") ? "pi-kit.v1" : false),
          // While refusing, fail the upgrade itself: the client sees a failed connection (1006).
          // A wrong token is refused before the upgrade with 401, as the real bridge does.
          verifyClient: (info, done) => {
            if (!(bridge?.accepting ?? true)) return done(false, 503);
            const offered = String(info.req.headers["sec-websocket-protocol"] ?? "");
            const token = /pi-kit\.token\.([^,\s]+)/.exec(offered)?.[1];
            done(
              token === TOKEN || (token !== undefined && bridge?.acceptToken(token) === true),
              401,
            );
          },
        },
        () => resolve(s),
      );
      s.once("error", reject);
    });
    bridge = new FakeBridge(server, version);
    return bridge;
  }

  /** The session URL. */
  get url(): string {
    const address = this.#server.address();
    if (typeof address !== "object" || address === null) throw new Error("not listening");
    return `ws://127.0.0.1:${address.port}/sessions/main/ws`;
  }

  /** True while a client is attached. */
  get attached(): boolean {
    return this.#socket !== undefined;
  }

  /** Sends one record to the attached client; lost (as with the real bridge) when none is attached. */
  send(record: unknown): void {
    this.#socket?.send(JSON.stringify(record));
  }

  /** Appends a message as pi does: `message_end`, then (1.x) the entry and `entry_appended`. */
  appendMessage(message: unknown): void {
    this.messages.push(message);
    this.send({ type: "message_end", message });
    if (this.version === "1") {
      const entry = this.#entry({ type: "message", message });
      this.send({ type: "entry_appended", entry });
    }
  }

  /** Opens a dialog pi waits for. */
  openDialog(request: Record<string, unknown>): void {
    const full = { type: "extension_ui_request", ...request };
    this.pendingDialogs.set(String(request.id), full);
    this.send(full);
  }

  /** Drops the attached connection abruptly (no close frame: the client sees 1006) and stops accepting. */
  drop(): void {
    this.accepting = false;
    this.#socket?.terminate();
    this.#socket = undefined;
  }

  /** Closes the attached connection with a code and reason, as the bridge does on pi exit or auth failure. */
  closeWith(code: number, reason: string): void {
    this.#socket?.close(code, reason);
    this.#socket = undefined;
  }

  /** Resolves when the client sends a command of `type`. */
  waitFor(type: string): Promise<Command> {
    return new Promise((resolve) => this.#waiters.push({ type, resolve }));
  }

  /** Resolves once a client is attached again. */
  async whenAttached(timeoutMs = 5000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (!this.attached) {
      if (Date.now() > until) throw new Error("no client attached");
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  /** Stops the server and drops every client. */
  async close(): Promise<void> {
    for (const client of this.#server.clients) client.terminate();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #connected(socket: WebSocket, request: IncomingMessage): void {
    const header = request.headers["sec-websocket-protocol"];
    const protocols = (Array.isArray(header) ? header.join(",") : (header ?? ""))
      .split(",")
      .map((p) => p.trim())
      .filter((p) => p !== "");
    this.upgrades.push({ url: request.url ?? "", protocols });
    this.#socket?.terminate();
    this.#socket = socket;
    const log: string[] = [];
    this.received.push(log);
    socket.on("close", () => {
      if (this.#socket === socket) this.#socket = undefined;
    });
    // Re-attach: dialogs pi still waits for come first, as the real bridge sends them.
    for (const dialog of this.pendingDialogs.values()) socket.send(JSON.stringify(dialog));
    socket.on("message", (data: Buffer, isBinary: boolean) => {
      if (isBinary) return;
      const text = data.toString("utf8");
      log.push(text);
      this.#command(JSON.parse(text) as Command);
    });
  }

  #command(command: Command): void {
    for (const waiter of this.#waiters.filter((w) => w.type === command.type)) {
      this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
      waiter.resolve(command);
    }
    const records = this.handlers.get(command.type)?.(command, this) ?? this.#default(command);
    for (const record of records) this.send(record);
  }

  #default(command: Command): unknown[] {
    const ok = (data?: unknown) => ({
      id: command.id,
      type: "response",
      command: command.type,
      success: true,
      ...(data === undefined ? {} : { data }),
    });
    switch (command.type) {
      case "get_state":
        return [
          ok({
            thinkingLevel: "off",
            isStreaming: this.streaming,
            isCompacting: false,
            steeringMode: "one-at-a-time",
            followUpMode: "one-at-a-time",
            sessionId: this.sessionId,
            autoCompactionEnabled: true,
            messageCount: this.messages.length,
            pendingMessageCount: 0,
          }),
        ];
      case "get_messages":
        return [ok({ messages: this.messages })];
      case "get_available_thinking_levels":
        if (this.version === "0.73") {
          return [
            {
              type: "response",
              command: command.type,
              success: false,
              error: "Unknown command: get_available_thinking_levels",
            },
          ];
        }
        return [ok({ levels: ["off"] })];
      case "get_entries": {
        const since = command.since;
        let entries = this.entries;
        if (typeof since === "string") {
          const at = entries.findIndex((e) => e.id === since);
          if (at === -1) {
            return [
              {
                id: command.id,
                type: "response",
                command: "get_entries",
                success: false,
                error: `Entry not found: ${since}`,
              },
            ];
          }
          entries = entries.slice(at + 1);
        }
        return [ok({ entries, leafId: this.entries.at(-1)?.id ?? null })];
      }
      case "extension_ui_response":
        this.pendingDialogs.delete(String(command.id));
        return [];
      default:
        return [ok()];
    }
  }

  #entry(fields: Record<string, unknown> & { type: string }): FakeBridge["entries"][number] {
    const entry = {
      ...fields,
      id: `e${++this.#nextEntry}`,
      parentId: this.entries.at(-1)?.id ?? null,
      timestamp: new Date(0).toISOString(),
    };
    this.entries.push(entry);
    return entry;
  }
}
