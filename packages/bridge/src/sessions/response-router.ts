/**
 * Who waits for each of pi's responses. A client's command is answered to that client alone, not
 * to every viewer (the others never asked, and their pending calls could take it for theirs); the
 * bridge's own commands (`get_state`, `set_session_name`) are answered to the bridge, and no client
 * sees those answers. Responses are told apart by their `id` as `peekRecord` reads it, so the
 * order in which pi writes a record's keys does not matter.
 */
import { BridgeError, BridgeErrorCode } from "../errors.ts";
import type { SessionConnection } from "./session-connection.ts";

/** How long the bridge waits for pi to answer one of its own commands. */
const REQUEST_TIMEOUT_MS = 15_000;
/** Commands whose responses go back to their sender alone, at most (a bound for ids pi never answers). */
const MAX_ROUTED = 256;

/** A response the bridge asked for itself: handed to its waiter, never relayed. */
export const BRIDGE_ANSWER = Symbol("bridge answer");

/** The commands of one session that pi has not answered yet, and who sent each. */
export class ResponseRouter {
  /** Unguessable: a client's record cannot pass for an answer to the bridge. */
  readonly idPrefix = `pi-kit-bridge-${crypto.randomUUID()}-`;
  /** Who sent each command pi has not answered yet, by the command's id as JSON text. */
  readonly #routes = new Map<string, SessionConnection>();
  /** The bridge's own commands waiting for pi's answer, by id. */
  readonly #requests = new Map<string, (response: Record<string, unknown>) => void>();
  #requestCount = 0;

  /** Whether any response is awaited; when none is, a response goes to everyone unread. */
  get waiting(): boolean {
    return this.#routes.size > 0 || this.#requests.size > 0;
  }

  /** Remembers who sent the command with this id; the oldest is forgotten past {@link MAX_ROUTED}. */
  route(id: string | number, from: SessionConnection): void {
    const key = JSON.stringify(id);
    this.#routes.delete(key);
    this.#routes.set(key, from);
    if (this.#routes.size > MAX_ROUTED) {
      const oldest = this.#routes.keys().next().value;
      if (oldest !== undefined) this.#routes.delete(oldest);
    }
  }

  /**
   * Where the response `line` with this `id` goes: {@link BRIDGE_ANSWER} when it answers the
   * bridge (already handed over), the connection that sent its command (forgotten now), or
   * `undefined` for every connection.
   */
  deliver(
    line: string,
    id: string | number | undefined,
  ): SessionConnection | typeof BRIDGE_ANSWER | undefined {
    if (id === undefined) return undefined;
    if (typeof id === "string" && id.startsWith(this.idPrefix)) {
      const answer = this.#requests.get(id);
      try {
        answer?.(JSON.parse(line) as Record<string, unknown>);
      } catch {
        // Not JSON after all: the request times out.
      }
      // Even one that came too late is the bridge's: no client ever sees it.
      return BRIDGE_ANSWER;
    }
    if (this.#routes.size === 0) return undefined;
    const key = JSON.stringify(id);
    const sender = this.#routes.get(key);
    if (sender !== undefined) this.#routes.delete(key);
    return sender;
  }

  /**
   * Sends the bridge's own command through `write` and resolves with pi's response. Rejects when
   * pi does not answer in time; when pi exits, {@link clear} answers it with a failure.
   */
  request(
    command: Record<string, unknown>,
    write: (line: string) => Promise<void>,
  ): Promise<Record<string, unknown>> {
    const id = `${this.idPrefix}${++this.#requestCount}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#requests.delete(id);
        reject(new BridgeError(BridgeErrorCode.PiTimeout, `pi did not answer ${command.type}`));
      }, REQUEST_TIMEOUT_MS);
      this.#requests.set(id, (response) => {
        clearTimeout(timer);
        this.#requests.delete(id);
        resolve(response);
      });
      write(`${JSON.stringify({ ...command, id })}\n`).catch(() => {
        // pi is gone: clear() answers every waiting request.
      });
    });
  }

  /** pi exited: the bridge's waiting commands fail, and no client waits for an answer any more. */
  clear(): void {
    for (const answer of this.#requests.values()) {
      answer({ type: "response", success: false, error: "pi exited" });
    }
    this.#requests.clear();
    this.#routes.clear();
  }
}
