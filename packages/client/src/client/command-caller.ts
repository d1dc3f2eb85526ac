import {
  type CommandId,
  isCommandType,
  type PromptDisposition,
  ProtocolError,
  type RpcCommand,
  type SessionState,
  validateCommand,
} from "@pi-kit/protocol";
import {
  isReconnectingTransport,
  type Transport,
  type TransportCloseInfo,
} from "../transports/transport.ts";
import { COMMANDS_MISSING_IN_073, capabilitiesFor } from "./capabilities.ts";
import type { SessionChangeReason } from "./client-events.ts";
import type { ClientParts } from "./client-parts.ts";
import {
  ABANDONS_RUN,
  CHANGES_SESSION,
  dispositionOf,
  LONG_RUNNING,
  OPENS_DIALOGS,
  throwIfCancelled,
  typeOf,
  vetoedByHook,
} from "./commands.ts";
import { PiClientError } from "./errors.ts";
import type { CallOptions, ResponseRecord } from "./pending-requests.ts";
import { type RawCommand, validateRawCommand } from "./raw-command.ts";

let clientCounter = 0;

/** What the call machinery needs of the client besides its parts. */
export interface CallerHost
  extends Pick<
    ClientParts,
    "hub" | "pending" | "tracker" | "dialogs" | "capabilities" | "dialogHosts"
  > {
  readonly transport: Transport;
  /** The default timeout of a call that is not long-running. */
  readonly defaultTimeoutMs: number;
  /** Writes one record to pi. */
  write(record: object): Promise<void>;
  /** Why the transport closed, once it has. */
  closeInfo(): TransportCloseInfo | undefined;
  /** Sends `get_state` (recording its answer). */
  getState(options: CallOptions): Promise<SessionState>;
  /** pi is on another session after `reason`: load it and tell listeners. */
  sessionChanged(reason: SessionChangeReason, dialogsBefore: number): Promise<void>;
}

/** The tracker's run count and state when a command was sent. */
interface RunMark {
  readonly starts: number;
  readonly running: boolean;
}

/**
 * Sends commands and interprets pi's answers: validation, capability checks, ids, timeouts and
 * refusals, then what follows from an answer (a prompt's disposition, a session switch, a run a
 * 0.73.x pi abandoned).
 */
export class CommandCaller {
  readonly #host: CallerHost;
  readonly #idPrefix =
    `pk${(++clientCounter).toString(36)}${Math.random().toString(36).slice(2, 6)}-`;
  #nextId = 0;
  // What each prompt answer did (pi's disposition, or the inferred one), for promptAndWait.
  readonly #dispositions = new WeakMap<ResponseRecord, PromptDisposition>();

  constructor(host: CallerHost) {
    this.#host = host;
  }

  /** A command id no other call of any client in this process uses. */
  newId(): string {
    return `${this.#idPrefix}${++this.#nextId}`;
  }

  /** What the prompt `response` answered did: pi's disposition, or the one inferred. */
  dispositionOf(response: ResponseRecord): PromptDisposition | undefined {
    return this.#dispositions.get(response);
  }

  /** Probes which pi line answers (1.x knows `get_available_thinking_levels`, 0.73.x does not). */
  async detect(options: CallOptions): Promise<void> {
    try {
      await this.call({ type: "get_available_thinking_levels" }, options);
      this.#host.capabilities.reset(capabilitiesFor("1", true));
    } catch (error) {
      if (!(error instanceof PiClientError) || error.code !== "unsupported") throw error;
      this.#host.capabilities.reset(capabilitiesFor("0.73", true));
    }
  }

  /** Sends one command and resolves with pi's success response; a failure throws a `PiClientError`. */
  async call(command: RpcCommand | RawCommand, options: CallOptions): Promise<ResponseRecord> {
    const { hub, pending, tracker, dialogs, capabilities, dialogHosts } = this.#host;
    const type = typeOf(command);
    // A cancelled call never reaches pi.
    throwIfCancelled(type, options.signal);
    const closed = this.#host.closeInfo();
    if (closed !== undefined) throw PiClientError.transportClosed(closed, type);
    const known = isCommandType(type);
    const invalid = known ? validateCommand(command) : validateRawCommand(command);
    if (invalid !== undefined) throw PiClientError.invalidCommand(type, invalid);
    if (!capabilities.current.supports(type)) {
      throw PiClientError.unsupported(type, this.#unsupportedWhy(type));
    }
    if (!known) {
      hub.report({
        kind: "unknown_command",
        message: `sent "${type}", a command type this client does not know; pi answers it (a newer pi) or says Unknown command`,
        record: command,
      });
    }
    const before: RunMark = { starts: tracker.starts, running: tracker.running };
    const dialogsBefore = dialogs.mark();
    const id: CommandId = command.id ?? this.newId();
    if (OPENS_DIALOGS.has(type)) dialogHosts.add(String(id));
    const timeoutMs =
      options.timeoutMs ?? (LONG_RUNNING.has(type) ? undefined : this.#host.defaultTimeoutMs);
    const registration: CallOptions = {};
    if (options.signal !== undefined) registration.signal = options.signal;
    if (timeoutMs !== undefined) registration.timeoutMs = timeoutMs;
    const response = pending.register(String(id), type, registration);
    const transport = this.#host.transport;
    this.#host.write({ ...command, id }).then(
      () => {
        // Read at once: a reconnect cannot happen between the send and this continuation.
        if (isReconnectingTransport(transport)) pending.markSent(String(id), transport.generation);
      },
      (error: unknown) => {
        pending.fail(
          String(id),
          error instanceof ProtocolError
            ? PiClientError.invalidCommand(type, error)
            : PiClientError.transportClosed(
                this.#host.closeInfo() ?? { reason: "error", error },
                type,
              ),
        );
      },
    );
    const answer = await response;
    if (!answer.success) {
      const text = answer.error ?? "(no error text)";
      const refusal = (answer as { code?: unknown }).code;
      if (refusal === "not_in_control" || refusal === "read_only") {
        throw PiClientError.notInControl(type, text);
      }
      if (text.startsWith("Unknown command")) {
        capabilities.learnUnknown(type);
        throw PiClientError.unsupported(type, `it answered "${text}"`);
      }
      throw PiClientError.rpcFailed(type, text);
    }
    if (type === "steer" || type === "follow_up") {
      capabilities.learnDisposition(dispositionOf(answer.data) !== undefined);
    }
    if (type === "prompt") {
      try {
        await this.#promptAnswered(answer, command, before, options.signal);
      } catch (error) {
        throw PiClientError.forCall(type, error, "telling what the prompt did");
      }
    }
    if (CHANGES_SESSION.has(type) && !vetoedByHook(answer.data)) {
      await this.#host.sessionChanged(type as SessionChangeReason, dialogsBefore);
      return answer;
    }
    // A pi without `agent_settled` (0.73.x) abandons a run mid-stream on these without a word;
    // a `get_state` afterwards settles it.
    if (ABANDONS_RUN.has(type) && tracker.running && !capabilities.current.agentSettled) {
      void this.#host.getState({}).catch(() => {
        // Best effort: the next get_state settles the run as well.
      });
    }
    return answer;
  }

  #unsupportedWhy(type: string): string {
    return this.#host.capabilities.current.versionLine === "0.73" &&
      COMMANDS_MISSING_IN_073.has(type as never)
      ? "pi 0.73.x lacks it; it needs pi 0.84 or later"
      : "it answered Unknown command before";
  }

  // What a prompt pi answered did, and what follows from it: the disposition pi gave, or (from a
  // pi that gives none) one inferred; a run it started is open in the tracker from here on.
  async #promptAnswered(
    response: ResponseRecord,
    command: RpcCommand | RawCommand,
    before: RunMark,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const reported = dispositionOf(response.data);
    this.#host.capabilities.learnDisposition(reported !== undefined);
    const queueable = (command as { streamingBehavior?: unknown }).streamingBehavior !== undefined;
    const disposition = reported ?? (await this.#inferDisposition(before, queueable, signal));
    this.#dispositions.set(response, disposition);
    if (disposition === "started") this.#host.tracker.expectRun(before.starts);
  }

  // A pi without dispositions: a `get_state` barrier tells a run (pi is streaming, or a run began
  // since the prompt was sent) from a prompt a command handled; pi was busy, a queued one.
  async #inferDisposition(
    before: RunMark,
    queueable: boolean,
    signal: AbortSignal | undefined,
  ): Promise<PromptDisposition> {
    const tracker = this.#host.tracker;
    if (tracker.starts > before.starts) return "started";
    if (before.running && queueable) return "queued";
    const state = await this.#host.getState(signal === undefined ? {} : { signal });
    if (tracker.starts > before.starts) return "started";
    return state.isStreaming ? "started" : "handled";
  }
}
