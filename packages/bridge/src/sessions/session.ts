/**
 * One session: one pi process (through the client's child-process transport, with paced
 * reading), its own session directory, the connections attached to it (one controls, the others
 * watch: see {@link SessionControl}), and the dialogs pi is waiting on. The bridge can also ask pi itself ({@link Session.request}); those answers never
 * reach clients.
 */
import { mkdir, utimes } from "node:fs/promises";
import {
  type BridgeDialogClosedRecord,
  type BridgeErrorRecord,
  type TransportFrame,
  type TransportFrames,
  WATCHER_COMMANDS,
} from "@pi-kit/client";
import type {
  ChildProcessOptions,
  ChildProcessTransport,
  StopTimeouts,
} from "@pi-kit/client/process";
import { isDialogMethod } from "@pi-kit/protocol";
import { BridgeCloseCode, closeReason } from "../close-codes.ts";
import { BridgeError, BridgeErrorCode } from "../errors.ts";
import { type BridgeLogger, safeLog } from "../logger.ts";
import { DENIED_PREFIX } from "../security/command-policy.ts";
import { PendingDialogs } from "./pending-dialogs.ts";
import { withoutModelChoice } from "./pi-args.ts";
import { type ControlledConnection, SessionControl } from "./session-control.ts";
import type { LiveState } from "./store/stored-session.ts";

/** Frames the transport may hold unread before the bridge stops reading pi's stdout. */
const TRANSPORT_HIGH_WATER_MARK = 16;
/** How long the bridge waits for pi to answer one of its own commands. */
const REQUEST_TIMEOUT_MS = 15_000;
/** Commands whose responses go back to their sender alone, at most (a bound for ids pi never answers). */
const MAX_ROUTED = 256;
/** The id of a response record, as JSON text: pi writes the id first. */
const RESPONSE_ID = /^\{"id":("(?:[^"\\]|\\.){0,200}"|-?\d{1,20}(?:\.\d+)?),"type":"response"/;
/** Responses to these commands mean pi now writes another session file. */
const SESSION_SWITCH =
  /^\{"id":[^\n]{0,200}?"type":"response","command":"(?:new_session|switch_session|fork|clone)","success":true/;

/** One read of pi's stdout, ready to relay: its lines, and the one connection each answers, if any. */
interface RelayBatch {
  readonly lines: readonly string[];
  readonly answers: readonly (SessionConnection | undefined)[];
}

/** The pi command every session runs, fixed by the server: clients never choose it. */
export interface PiProcessSpec {
  /** The executable, for example `pi`, or `node` with pi's `cli.js` first in `args`. */
  readonly command: string;
  /** Arguments, `--mode rpc` included; the session directory arguments are appended. */
  readonly args?: readonly string[];
  /** pi's working directory (the project); defaults to the bridge's. */
  readonly cwd?: string;
  /** Extra environment; `undefined` removes a variable. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** How a session's pi starts: the arguments that pick its session file, and a notice for its first client. */
export interface StartPlan {
  /** Arguments after the session directory's, e.g. `["--session", file]`. */
  readonly args: readonly string[];
  /** The file pi continues, when it resumes one. */
  readonly resumedFrom?: string;
  /** The file has messages: pi restores its model and thinking level, so the command's choice is left out. */
  readonly restoresModel?: boolean;
  /** Shown to the first client that attaches (as a pi `notify`), e.g. that a run was cut off. */
  readonly notice?: string;
  /** A session name for pi to take (`set_session_name`) as it starts. */
  readonly name?: string;
}

/** Why the bridge stops a session's pi. */
export type CloseReason = "closed" | "idle" | "grace" | "shutdown" | "deleted";

/** Where a session's pi is in its life. */
export type SessionState = "starting" | "running" | "stopping" | "exited";

/** How pi ended. */
export interface SessionExit {
  /** The exit code, or `null` when a signal ended it. */
  readonly exitCode: number | null;
  /** The signal that ended it, or `null`. */
  readonly signal: string | null;
  /** The last lines pi wrote to stderr. */
  readonly stderrTail: string;
  /** Whether the bridge stopped it (`true`) or it ended by itself. */
  readonly stoppedByBridge: boolean;
}

/** A snapshot of a session for the HTTP API and for tests. */
export interface SessionInfo {
  /** The session's name (also its directory name). */
  readonly name: string;
  /** pi's lifecycle state. */
  readonly state: SessionState;
  /** Whether pi is in a run (between `agent_start` and `agent_settled`/`agent_end`). */
  readonly streaming: boolean;
  /** Whether a client is attached. */
  readonly attached: boolean;
  /** How many connections are attached (one controls, the others watch). */
  readonly viewers: number;
  /** The label of the connection in control, or `null` when nobody controls. */
  readonly controller: string | null;
  /** pi's process id, while known. */
  readonly pid: number | null;
  /** When the session was created (ISO 8601). */
  readonly createdAt: string;
  /** The last record in either direction (ISO 8601). */
  readonly lastActivity: string;
  /** Dialogs pi still waits on. */
  readonly pendingDialogs: number;
  /** Bytes queued now on the fullest attached socket. */
  readonly bufferedAmount: number;
  /** The most bytes ever queued on one of this session's sockets (the backpressure bound). */
  readonly peakBufferedAmount: number;
  /** How often reading pi was paused because a socket was over the high-water mark. */
  readonly pauses: number;
  /** How pi ended, once it has. */
  readonly exit: SessionExit | null;
  /** The session file pi continued when it started, if it resumed one. */
  readonly resumedFrom: string | null;
}

/** What a session needs from a socket attached to it. */
export interface SessionConnection extends ControlledConnection {
  /** Bytes queued on the socket and not yet sent. */
  bufferedAmount(): number;
  /** Resolves once the socket is below the high-water mark, closed, or closed for stalling. */
  drained(): Promise<void>;
  /** Closes the socket with a code and reason. */
  close(code: number, reason: string): void;
}

/** Everything a session needs from the bridge, resolved. */
export interface SessionSettings {
  readonly pi: PiProcessSpec;
  readonly sessionArgs: (sessionDir: string) => readonly string[];
  readonly spawn: (
    options: ChildProcessOptions,
    sessionDir: string,
  ) => Promise<ChildProcessTransport>;
  readonly highWaterMark: number;
  readonly maxPendingDialogs: number;
  readonly maxStdinBytes: number;
  readonly stopTimeouts: StopTimeouts | undefined;
  readonly logger: BridgeLogger;
}

/** One pi process and the connection attached to it. Create with {@link Session.start}. */
export class Session {
  /** The session's name. */
  readonly name: string;
  /** Its key in the registry: the name, or `_users/<user>/<name>` for a ticket user's session. */
  readonly key: string;
  /** The session directory, where pi keeps its session files. */
  readonly dir: string;
  /** Settles once pi has exited. */
  readonly exited: Promise<SessionExit>;
  readonly #settings: SessionSettings;
  readonly #transport: ChildProcessTransport;
  readonly #writer: WritableStreamDefaultWriter<string>;
  readonly #dialogs: PendingDialogs;
  readonly #plan: StartPlan;
  /** The bridge's own commands waiting for pi's answer, by id. */
  readonly #requests = new Map<string, (response: Record<string, unknown>) => void>();
  /** Unguessable: a client's record cannot pass for an answer to the bridge. */
  readonly #requestPrefix = `pi-kit-bridge-${crypto.randomUUID()}-`;
  #requestCount = 0;
  readonly #createdAt = Date.now();
  #notice: string | undefined;
  /** Marking the file pi moved to as the latest; a stop waits for it. */
  #following: Promise<void> = Promise.resolve();
  /** The session name pi announced (`null`: cleared); `undefined` until it announces one. */
  #piName: string | null | undefined;
  #state: SessionState = "running";
  #streaming = false;
  readonly #control = new SessionControl<SessionConnection>();
  /** Who sent each command pi has not answered yet, by the command's id as JSON text. */
  readonly #routes = new Map<string, SessionConnection>();
  #lastActivity = Date.now();
  #detachedAt = performance.now();
  #stdinQueued = 0;
  #peakBuffered = 0;
  #pauses = 0;
  #exit: SessionExit | null = null;
  #stopping = false;

  private constructor(
    name: string,
    key: string,
    dir: string,
    transport: ChildProcessTransport,
    settings: SessionSettings,
    plan: StartPlan,
  ) {
    this.name = name;
    this.key = key;
    this.dir = dir;
    this.#settings = settings;
    this.#plan = plan;
    this.#notice = plan.notice;
    this.#transport = transport;
    this.#writer = transport.writable.getWriter();
    this.#dialogs = new PendingDialogs(settings.maxPendingDialogs);
    const pumped = this.#pump();
    this.exited = transport.closed.then(async (info) => {
      // Let the pump deliver what pi wrote before it died, then report the exit.
      await pumped;
      return this.#onExit(info.exitCode ?? null, info.signal ?? null, info.stderrTail ?? "");
    });
  }

  /**
   * Creates the session directory (0700, as are the directories above it that it creates) and
   * spawns pi in it, continuing a session file when `plan` says so.
   */
  static async start(
    name: string,
    dir: string,
    settings: SessionSettings,
    plan: StartPlan = { args: [] },
    key: string = name,
  ): Promise<Session> {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    let transport: ChildProcessTransport;
    try {
      transport = await settings.spawn(
        {
          command: settings.pi.command,
          args: [
            ...(plan.restoresModel
              ? withoutModelChoice(settings.pi.args ?? [])
              : (settings.pi.args ?? [])),
            ...settings.sessionArgs(dir),
            ...plan.args,
          ],
          ...(settings.pi.cwd === undefined ? {} : { cwd: settings.pi.cwd }),
          ...(settings.pi.env === undefined ? {} : { env: settings.pi.env }),
          highWaterMark: TRANSPORT_HIGH_WATER_MARK,
          ...(settings.stopTimeouts === undefined ? {} : { stopTimeouts: settings.stopTimeouts }),
        },
        dir,
      );
    } catch (cause) {
      throw new BridgeError(BridgeErrorCode.SpawnFailed, `Cannot start pi for session ${name}`, {
        cause,
      });
    }
    const session = new Session(name, key, dir, transport, settings, plan);
    if (plan.name !== undefined) {
      // Written before any client's command, so pi has the name before anything else.
      session.setName(plan.name).catch(() => {
        // pi exited or refused: the name stays waiting for the next start.
      });
    }
    safeLog(settings.logger, {
      event: "session_created",
      session: key,
      pid: transport.pid ?? null,
      ...(plan.resumedFrom === undefined ? {} : { resumedFrom: plan.resumedFrom }),
    });
    return session;
  }

  /** Whether pi is still running. */
  get alive(): boolean {
    return this.#state === "running";
  }

  /** Whether a client is attached. */
  get attached(): boolean {
    return this.#control.connections.size > 0;
  }

  /** What the history shows of this session while pi runs; `undefined` once pi has exited. */
  live(): LiveState | undefined {
    if (this.#exit !== null) return undefined;
    return {
      state: this.#streaming ? "running" : "idle",
      lastActivityMs: this.#lastActivity,
      ...(this.#piName === undefined ? {} : { name: this.#piName }),
    };
  }

  /** Milliseconds (performance clock) since the last client left, or since creation. */
  detachedFor(now: number = performance.now()): number {
    return this.attached ? 0 : now - this.#detachedAt;
  }

  /** Milliseconds since the last record in either direction. */
  idleFor(now: number = Date.now()): number {
    return now - this.#lastActivity;
  }

  /**
   * Attaches a connection beside the others: it learns who controls (a `bridge_control` record,
   * also sent to the others), then gets the dialogs pi is still waiting on. A session whose pi
   * has exited closes the connection with the exit reason.
   */
  attach(connection: SessionConnection): void {
    if (this.#exit !== null || this.#stopping) {
      connection.close(...this.#endCode());
      return;
    }
    this.#control.attach(connection);
    if (this.#notice !== undefined) {
      connection.send(
        JSON.stringify({
          type: "extension_ui_request",
          id: `${this.#requestPrefix}notice`,
          method: "notify",
          message: this.#notice,
          notifyType: "warning",
        }),
      );
      this.#notice = undefined;
    }
    for (const line of this.#dialogs.replay()) connection.send(line);
  }

  /** Detaches a connection (it closed); once none is left, the grace period starts. */
  detach(connection: SessionConnection): void {
    if (!this.#control.detach(connection)) return;
    if (!this.attached) this.#detachedAt = performance.now();
  }

  /** Makes `connection` the controller (a read-only one is refused with a `bridge_error`). */
  takeControl(connection: SessionConnection): boolean {
    return this.#control.take(connection);
  }

  /**
   * The refusal for a record `connection` may not send because it does not control the session:
   * a pi-style failure response for a command (so the pending call fails), a `bridge_error` for
   * a dialog answer; `undefined` when it may send it (it controls, or the command is a query).
   */
  refusal(
    connection: SessionConnection,
    record: { readonly type: string; readonly id?: string | number | undefined },
  ): string | undefined {
    if (this.#control.controls(connection)) return undefined;
    if ((WATCHER_COMMANDS as ReadonlySet<string>).has(record.type)) return undefined;
    const code = connection.readOnly ? "read_only" : "not_in_control";
    const holder = this.#control.controllerLabel();
    const error = connection.readOnly
      ? `${DENIED_PREFIX}this connection is read-only; it can watch, never send \`${record.type}\``
      : `${DENIED_PREFIX}this connection is watching (${holder === undefined ? "nobody" : holder} is in control); take control (bridge_take_control) to send \`${record.type}\``;
    if (record.type === "extension_ui_response") {
      const refused: BridgeErrorRecord = {
        type: "bridge_error",
        command: record.type,
        ...(typeof record.id === "string" ? { id: record.id } : {}),
        code,
        error,
      };
      return JSON.stringify(refused);
    }
    return JSON.stringify({
      type: "response",
      ...(record.id === undefined ? {} : { id: record.id }),
      command: record.type,
      success: false,
      error,
      code,
    });
  }

  /**
   * Writes one record (already checked by the policy) to pi's stdin. Returns `false` when pi's
   * input has backed up past `maxStdinBytes`: the caller should shed the client. With `from`
   * and the command's `id`, pi's response goes back to `from` alone, not to every viewer.
   */
  write(
    line: string,
    uiResponseId?: string,
    from?: SessionConnection,
    id?: string | number,
  ): boolean {
    if (this.#exit !== null) return true;
    const size = line.length;
    if (this.#stdinQueued + size > this.#settings.maxStdinBytes) return false;
    this.#stdinQueued += size;
    this.#lastActivity = Date.now();
    if (uiResponseId !== undefined) this.#answered(uiResponseId, from);
    else if (from !== undefined && id !== undefined) this.#route(JSON.stringify(id), from);
    this.#writer.write(`${line}\n`).then(
      () => {
        this.#stdinQueued -= size;
      },
      () => {
        // pi is gone: its exit, reported through `exited`, says why.
        this.#stdinQueued -= size;
      },
    );
    return true;
  }

  /**
   * pi has its answer to dialog `id`. pi never says a dialog is over, so the bridge tells every
   * other connection (theirs would stay open until it timed out).
   */
  #answered(id: string, from: SessionConnection | undefined): void {
    if (!this.#dialogs.answer(id) || from === undefined) return;
    const closed: BridgeDialogClosedRecord = {
      type: "bridge_dialog_closed",
      id,
      by: { id: from.id, label: from.label },
    };
    const line = JSON.stringify(closed);
    for (const connection of this.#control.connections) {
      if (connection !== from) connection.send(line);
    }
  }

  /**
   * Sends the bridge's own command to pi and resolves with pi's response, which no client sees.
   * Rejects when pi exits or does not answer in time.
   */
  request(command: Record<string, unknown>): Promise<Record<string, unknown>> {
    if (this.#exit !== null || this.#stopping) {
      return Promise.reject(new BridgeError(BridgeErrorCode.SessionStopped, "pi is not running"));
    }
    const id = `${this.#requestPrefix}${++this.#requestCount}`;
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
      this.#writer.write(`${JSON.stringify({ ...command, id })}\n`).catch(() => {
        // pi is gone: #onExit rejects every waiting request.
      });
    });
  }

  /** Names the session through pi (`set_session_name`): pi saves the name and tells the client. */
  async setName(name: string): Promise<void> {
    const response = await this.request({ type: "set_session_name", name });
    if (response.success !== true) {
      const reason = typeof response.error === "string" ? response.error : "pi refused the name";
      throw new BridgeError(BridgeErrorCode.PiError, reason);
    }
    this.#piName = name;
  }

  /** The session name pi announced since it started (`null`: cleared); `undefined` if none. */
  get announcedName(): string | null | undefined {
    return this.#piName;
  }

  /** Stops pi gracefully (stdin first) after closing the attached sockets; resolves with the exit. */
  async close(reason: CloseReason): Promise<SessionExit> {
    // A resume must continue the file the user moved to, even right after the move.
    await this.#following;
    if (!this.#stopping && this.#exit === null) {
      this.#stopping = true;
      this.#state = "stopping";
      const code =
        reason === "shutdown" ? BridgeCloseCode.GoingAway : BridgeCloseCode.SessionClosed;
      for (const connection of this.#control.clear())
        connection.close(code, closeReason({ reason }));
      await this.#transport.close();
      safeLog(this.#settings.logger, { event: "session_closed", session: this.key, reason });
    }
    return this.exited;
  }

  /** Sends a signal to pi at once (tests, emergencies); the exit is reported as usual. */
  kill(signal: "SIGTERM" | "SIGKILL" = "SIGTERM"): void {
    this.#transport.kill(signal);
  }

  /** A snapshot for the API. */
  info(): SessionInfo {
    let buffered = 0;
    for (const connection of this.#control.connections) {
      buffered = Math.max(buffered, connection.bufferedAmount());
    }
    return {
      name: this.name,
      state: this.#state,
      streaming: this.#streaming,
      attached: this.attached,
      viewers: this.#control.connections.size,
      controller: this.#control.controller?.label ?? null,
      pid: this.#exit === null ? (this.#transport.pid ?? null) : null,
      createdAt: new Date(this.#createdAt).toISOString(),
      lastActivity: new Date(this.#lastActivity).toISOString(),
      pendingDialogs: this.#dialogs.size(),
      bufferedAmount: buffered,
      peakBufferedAmount: Math.max(this.#peakBuffered, buffered),
      pauses: this.#pauses,
      exit: this.#exit,
      resumedFrom: this.#plan.resumedFrom ?? null,
    };
  }

  /**
   * Reads pi for as long as it runs. Attached: each record goes out as one message to every
   * connection, and reading pauses while a socket is over the high-water mark (pi then blocks on
   * its stdout pipe). Detached: records are read and dropped, so pi never blocks; only open
   * dialogs are kept.
   */
  async #pump(): Promise<void> {
    const reader = this.#transport.readable.getReader();
    for (;;) {
      let result: ReadableStreamReadResult<TransportFrames>;
      try {
        result = await reader.read();
      } catch {
        return;
      }
      if (result.done) return;
      const drained = this.#relay(result.value);
      if (drained !== undefined) await drained;
    }
  }

  /**
   * Relays one batch of pi's frames to the attached clients. The controller gets the whole batch
   * before any watcher does, so watching adds nothing to the latency of the one who drives pi.
   * Returns a promise when a socket is over the high-water mark.
   */
  #relay(frames: TransportFrames): Promise<void> | undefined {
    const lines: string[] = [];
    // The one connection each line answers, or undefined for a line everyone gets.
    const answers: (SessionConnection | undefined)[] = [];
    for (const frame of frames) {
      const line = this.#accept(frame);
      if (line === undefined) continue;
      lines.push(line);
      answers.push(this.#routes.size > 0 ? this.#sender(line) : undefined);
    }
    if (lines.length === 0) return undefined;
    const held: Promise<void>[] = [];
    const controller = this.#control.controller;
    if (controller !== undefined) this.#sendFrom(controller, { lines, answers }, 0, held);
    for (const connection of this.#control.connections) {
      if (connection !== controller) this.#sendFrom(connection, { lines, answers }, 0, held);
    }
    if (held.length === 0) return undefined;
    return held.length === 1 ? held[0] : Promise.all(held).then(() => undefined);
  }

  /** The line to relay for one frame; the bridge's own answers and pi's unreadable output stay here. */
  #accept(frame: TransportFrame): string | undefined {
    if (typeof frame !== "string") {
      safeLog(this.#settings.logger, {
        event: "pi_record_error",
        session: this.key,
        error: frame.message,
      });
      return undefined;
    }
    if (this.#requests.size > 0 && frame.startsWith(`{"id":"${this.#requestPrefix}`)) {
      this.#answer(frame);
      return undefined;
    }
    this.#lastActivity = Date.now();
    this.#observe(frame);
    return frame;
  }

  /**
   * Sends `connection` its lines of a batch from `start` on: the broadcast ones and the answers to
   * its own commands (an answer to a connection that has left is dropped: the others never asked).
   * Once its socket is over the high-water mark, the rest of the batch waits for it to drain (a
   * promise added to `held`), so a socket never holds more than the mark plus one record.
   */
  #sendFrom(
    connection: SessionConnection,
    batch: RelayBatch,
    start: number,
    held: Promise<void>[],
  ): void {
    const { lines, answers } = batch;
    for (let i = start; i < lines.length; i++) {
      const to = answers[i];
      if (to !== undefined && to !== connection) continue;
      connection.send(lines[i] as string);
      const buffered = connection.bufferedAmount();
      if (buffered > this.#peakBuffered) this.#peakBuffered = buffered;
      if (buffered <= this.#settings.highWaterMark) continue;
      this.#pauses++;
      held.push(connection.drained().then(() => this.#sendRest(connection, batch, i + 1)));
      return;
    }
  }

  /** The rest of a batch, once `connection` has drained, unless it has left meanwhile. */
  async #sendRest(connection: SessionConnection, batch: RelayBatch, start: number): Promise<void> {
    if (!this.#control.connections.has(connection)) return;
    const held: Promise<void>[] = [];
    this.#sendFrom(connection, batch, start, held);
    await held[0];
  }

  /** Remembers who sent the command with this id; the oldest is forgotten past {@link MAX_ROUTED}. */
  #route(id: string, from: SessionConnection): void {
    this.#routes.delete(id);
    this.#routes.set(id, from);
    if (this.#routes.size > MAX_ROUTED) {
      const oldest = this.#routes.keys().next().value;
      if (oldest !== undefined) this.#routes.delete(oldest);
    }
  }

  /** The connection a response frame answers, if one of them sent its command (forgotten now). */
  #sender(frame: string): SessionConnection | undefined {
    const text = RESPONSE_ID.exec(frame)?.[1];
    if (text === undefined) return undefined;
    let key: string;
    try {
      key = JSON.stringify(JSON.parse(text));
    } catch {
      return undefined;
    }
    const sender = this.#routes.get(key);
    if (sender !== undefined) this.#routes.delete(key);
    return sender;
  }

  /** Hands pi's answer to one of the bridge's commands to whoever waits for it. */
  #answer(line: string): void {
    let response: Record<string, unknown>;
    try {
      response = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return;
    }
    if (typeof response.id === "string") this.#requests.get(response.id)?.(response);
  }

  /** Tracks what the API reports and the dialogs to re-send, from pi's own records. */
  #observe(line: string): void {
    // Cheap prefix tests first: only the rare interesting records are parsed.
    if (line.startsWith('{"type":"agent_')) {
      if (line.startsWith('{"type":"agent_start"')) this.#streaming = true;
      else if (line.startsWith('{"type":"agent_settled"') || line.startsWith('{"type":"agent_end"'))
        this.#streaming = false;
      return;
    }
    if (line.startsWith('{"type":"session_info_changed"')) {
      try {
        const name = (JSON.parse(line) as { name?: unknown }).name;
        this.#piName = typeof name === "string" && name.trim() !== "" ? name.trim() : null;
      } catch {
        // Not JSON: the client's framer reports it.
      }
      return;
    }
    if (SESSION_SWITCH.test(line)) {
      this.#following = this.#following.then(() => this.#followSessionFile());
      return;
    }
    if (!line.includes('"extension_ui_request"')) return;
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      return;
    }
    if (typeof record !== "object" || record === null) return;
    const request = record as Record<string, unknown>;
    if (request.type === "extension_ui_request" && isDialogMethod(request.method)) {
      this.#dialogs.add(request);
    }
  }

  /**
   * pi moved to another session file (new, switched to, forked or cloned): marks that file as the
   * one written last, which is the file a later resume continues. Best effort: pi may not have
   * written the file yet (a new session is saved with its first message), and then it is not.
   */
  async #followSessionFile(): Promise<void> {
    try {
      const state = await this.request({ type: "get_state" });
      const file = (state.data as { sessionFile?: unknown } | undefined)?.sessionFile;
      if (typeof file !== "string") return;
      const now = new Date();
      await utimes(file, now, now);
    } catch {
      // pi exited, did not answer, or has not written the file: the newest file stays the latest.
    }
  }

  #onExit(exitCode: number | null, signal: string | null, stderrTail: string): SessionExit {
    this.#state = "exited";
    this.#streaming = false;
    this.#dialogs.clear();
    for (const answer of this.#requests.values()) {
      answer({ type: "response", success: false, error: "pi exited" });
    }
    this.#requests.clear();
    this.#routes.clear();
    const exit: SessionExit = { exitCode, signal, stderrTail, stoppedByBridge: this.#stopping };
    this.#exit = exit;
    safeLog(this.#settings.logger, {
      event: "pi_exit",
      session: this.key,
      exitCode,
      signal,
      stderrTail,
    });
    this.#detachedAt = performance.now();
    const end = this.#endCode();
    for (const connection of this.#control.clear()) connection.close(...end);
    return exit;
  }

  /** The close code and reason for a client of a session whose pi has ended. */
  #endCode(): [number, string] {
    const exit = this.#exit;
    if (exit === null || exit.stoppedByBridge)
      return [BridgeCloseCode.SessionClosed, closeReason({ reason: "closed" })];
    return [
      BridgeCloseCode.PiExited,
      closeReason(
        { reason: "exit", exitCode: exit.exitCode, signal: exit.signal },
        exit.stderrTail.trimEnd(),
      ),
    ];
  }
}
