/**
 * Who waits for each of pi's responses. A client's command is answered to that client alone, not
 * to every viewer (the others never asked, and their pending calls could take it for theirs); the
 * bridge's own commands (`get_state`, `set_session_name`) are answered to the bridge, and no client
 * sees those answers.
 *
 * Clients choose their ids freely: two sockets may both send `"id": "1"`, or none at all. So every
 * client command reaches pi under an id of the bridge's own (unguessable, unique in the session),
 * and the response goes back to the socket that sent it with the client's id restored (or none, as
 * sent). Responses are told apart by their `id` as `peekRecord` reads it, so the order in which pi
 * writes a record's keys does not matter.
 */
import { BridgeError, BridgeErrorCode } from "../errors/bridge-error.ts";
import type { SessionConnection } from "./session-connection.ts";

/** How long the bridge waits for pi to answer one of its own commands. */
const REQUEST_TIMEOUT_MS = 15_000;
/** Client commands awaiting pi's answer, at most (a bound for commands pi never answers). */
const MAX_ROUTED = 1024;

/** A response the bridge asked for itself, or one for nobody: handed over, never relayed. */
export const BRIDGE_ANSWER = Symbol("bridge answer");

/** A response for one connection: the line as it goes to it, with its own id. */
export interface RoutedAnswer {
  readonly to: SessionConnection;
  readonly line: string;
}

/** Who sent a command pi has not answered yet, and the id it gave it (if any). */
interface Route {
  readonly from: SessionConnection;
  readonly id: string | number | undefined;
}

/** The commands of one session that pi has not answered yet, and who sent each. */
export class ResponseRouter {
  /** Unguessable: a client's record cannot pass for an answer to the bridge or to another client. */
  readonly idPrefix = `pi-kit-bridge-${crypto.randomUUID()}-`;
  /** Client commands pi has not answered yet, by the bridge's id for them. */
  readonly #routes = new Map<string, Route>();
  /** The bridge's own commands waiting for pi's answer, by id. */
  readonly #requests = new Map<string, (response: Record<string, unknown>) => void>();
  #requestCount = 0;
  #commandCount = 0;

  /** Whether any response is awaited; when none is, a response goes to everyone unread. */
  get waiting(): boolean {
    return this.#routes.size > 0 || this.#requests.size > 0;
  }

  /**
   * Gives the command `line` from `from` (whose own id is `id`, if it has one) the bridge's id, and
   * returns the line to write to pi with that id. The oldest route is forgotten past
   * {@link MAX_ROUTED}.
   */
  route(
    line: string,
    from: SessionConnection,
    id: string | number | undefined,
  ): { readonly line: string; readonly bridgeId: string } {
    const bridgeId = `${this.idPrefix}c${++this.#commandCount}`;
    this.#routes.set(bridgeId, { from, id });
    if (this.#routes.size > MAX_ROUTED) {
      const oldest = this.#routes.keys().next().value;
      if (oldest !== undefined) this.#routes.delete(oldest);
    }
    return { line: withLastId(line, bridgeId), bridgeId };
  }

  /** Forgets the route of a command that never reached pi. */
  unroute(bridgeId: string): void {
    this.#routes.delete(bridgeId);
  }

  /**
   * Where the response `line` with this `id` goes: {@link BRIDGE_ANSWER} when it answers the
   * bridge (already handed over) or a command whose route was forgotten, the connection that sent
   * its command with the line it gets, or `undefined` for every connection (no id, or not ours).
   */
  deliver(
    line: string,
    id: string | number | undefined,
  ): RoutedAnswer | typeof BRIDGE_ANSWER | undefined {
    if (typeof id !== "string" || !id.startsWith(this.idPrefix)) return undefined;
    const route = this.#routes.get(id);
    if (route !== undefined) {
      this.#routes.delete(id);
      return { to: route.from, line: withClientId(line, id, route.id) };
    }
    const answer = this.#requests.get(id);
    try {
      answer?.(JSON.parse(line) as Record<string, unknown>);
    } catch {
      // Not JSON after all: the request times out.
    }
    // Even one that came too late is the bridge's: no client ever sees it.
    return BRIDGE_ANSWER;
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

/**
 * The JSON object text `line` with `"id"` set to `id`, appended as its last member: JSON.parse
 * keeps the last of duplicate keys (ECMA-262), so this overrides any id the client wrote without
 * parsing and re-encoding a command that may carry megabytes of images.
 */
function withLastId(line: string, id: string): string {
  const end = line.lastIndexOf("}");
  return `${line.slice(0, end)},"id":${JSON.stringify(id)}${line.slice(end)}`;
}

/**
 * pi's response `line` with the bridge's id `bridgeId` replaced by the client's (or removed when
 * the command had none). pi writes compact JSON, so the member is found as text; anything else is
 * parsed and re-encoded.
 */
function withClientId(line: string, bridgeId: string, id: string | number | undefined): string {
  const member = `"id":${JSON.stringify(bridgeId)}`;
  const at = line.indexOf(member);
  if (at === -1) {
    const record = JSON.parse(line) as Record<string, unknown>;
    if (id === undefined) delete record.id;
    else record.id = id;
    return JSON.stringify(record);
  }
  const after = at + member.length;
  if (id !== undefined) return `${line.slice(0, at)}"id":${JSON.stringify(id)}${line.slice(after)}`;
  if (line[after] === ",") return `${line.slice(0, at)}${line.slice(after + 1)}`;
  if (line[at - 1] === ",") return `${line.slice(0, at - 1)}${line.slice(after)}`;
  return `${line.slice(0, at)}${line.slice(after)}`;
}
