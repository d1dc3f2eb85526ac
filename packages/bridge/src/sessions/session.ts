/**
 * One session: one pi process (through the client's child-process transport, with paced reading)
 * and its lifecycle, in its own session directory. Its parts: {@link PiInput} writes to pi;
 * {@link PiOutput} reads pi and hands each record to the {@link FanOut} (backpressure per socket),
 * which sends it to the {@link SessionConnections} (one controls, the others watch), an answer only
 * to its asker ({@link ResponseRouter}); the dialogs pi waits on ({@link PendingDialogs}), the run
 * in progress ({@link RunRecorder}) and the file pi writes ({@link SessionFile}) are kept for
 * clients that attach later; with checkpoints on, {@link RunCheckpoints} holds pi's input while
 * each is taken. The bridge can also ask pi itself ({@link Session.request}).
 */
import { mkdir } from "node:fs/promises";
import type { ChildProcessTransport } from "@pi-kit/client/process";
import { BridgeCloseCode, closeReason } from "@pi-kit/protocol/bridge";
import { BridgeError, BridgeErrorCode } from "../errors/bridge-error.ts";
import { safeLog } from "../logging/logger.ts";
import { BRIDGE_OWNER, type SessionKey, sessionKey } from "../principals/owner.ts";
import type { ControlMemory } from "./control-memory.ts";
import { FanOut } from "./fan-out.ts";
import { PendingDialogs } from "./pending-dialogs.ts";
import { PiInput } from "./pi-input.ts";
import { PiOutput } from "./pi-output.ts";
import { ResponseRouter } from "./response-router.ts";
import { RetainedUi } from "./retained-ui.ts";
import { RunCheckpoints } from "./run-checkpoints.ts";
import { RunRecorder } from "./run-recorder.ts";
import type { SessionConnection } from "./session-connection.ts";
import { SessionConnections } from "./session-connections.ts";
import { SessionControl } from "./session-control.ts";
import { SessionFile } from "./session-file.ts";
import {
  type CloseReason,
  endCode,
  type LiveState,
  type SessionExit,
  type SessionInfo,
  type SessionState,
} from "./session-info.ts";
import { type SessionSettings, type StartPlan, spawnOptions } from "./session-settings.ts";

/** The standard close code for a service restart: clients reconnect (the protocol's codes lack it). */
const SERVICE_RESTART = 1012;

/** One pi process and the connections attached to it. Create with {@link Session.start}. */
export class Session {
  /** The session's name. */
  readonly name: string;
  /** Its key in the registry: the name, or `_users/<user>/<name>` for a ticket user's session. */
  readonly key: SessionKey;
  /** The session directory, where pi keeps its session files. */
  readonly dir: string;
  /** Settles once pi has exited. */
  readonly exited: Promise<SessionExit>;
  readonly #settings: SessionSettings;
  readonly #transport: ChildProcessTransport;
  readonly #dialogs: PendingDialogs;
  /** The run in progress, for a connection that attaches mid-run. */
  readonly #run = new RunRecorder();
  readonly #plan: StartPlan;
  readonly #router = new ResponseRouter();
  readonly #connections: SessionConnections;
  readonly #fanOut: FanOut;
  readonly #file: SessionFile;
  readonly #output: PiOutput;
  readonly #input: PiInput;
  readonly #createdAt = Date.now();
  /** The workspace's checkpoints as pi's input meets them, when the bridge keeps them. */
  readonly #runCheckpoints: RunCheckpoints | undefined;
  /** Where the controller is remembered for the next start, when the bridge keeps it. */
  readonly #controlMemory: ControlMemory | undefined;
  #state: SessionState = "running";
  #exit: SessionExit | null = null;
  #stopping = false;

  private constructor(
    name: string,
    key: SessionKey,
    dir: string,
    transport: ChildProcessTransport,
    settings: SessionSettings,
    plan: StartPlan,
    formerController: string | undefined,
  ) {
    this.name = name;
    this.key = key;
    this.dir = dir;
    this.#settings = settings;
    this.#file = new SessionFile((file) => settings.onFileMoved?.(key, file));
    this.#plan = plan;
    this.#transport = transport;
    this.#input = new PiInput(transport.writable, settings.maxStdinBytes);
    const checkpoints = settings.checkpoints?.started(key);
    this.#runCheckpoints =
      checkpoints === undefined
        ? undefined
        : new RunCheckpoints({
            key,
            checkpoints,
            input: this.#input,
            request: (command) => this.request(command),
            logger: settings.logger,
          });
    this.#dialogs = new PendingDialogs(settings.maxPendingDialogs);
    const ui = new RetainedUi();
    const memory = settings.controlMemory?.(key);
    this.#controlMemory = memory;
    const reclaimMs = settings.controlReclaimMs;
    this.#connections = new SessionConnections(
      this.#run,
      this.#dialogs,
      ui,
      plan.notice === undefined
        ? undefined
        : { id: `${this.#router.idPrefix}notice`, message: plan.notice },
      new SessionControl<SessionConnection>({
        reclaim:
          formerController === undefined || reclaimMs === undefined || reclaimMs <= 0
            ? undefined
            : { identity: formerController, ms: reclaimMs },
        onChange: memory === undefined ? undefined : (identity) => memory.remember(identity),
      }),
    );
    this.#fanOut = new FanOut(this.#connections.control, settings.highWaterMark);
    this.#output = new PiOutput({
      key,
      logger: settings.logger,
      fanOut: this.#fanOut,
      router: this.#router,
      run: this.#run,
      dialogs: this.#dialogs,
      ui,
      file: this.#file,
      getState: () => this.request({ type: "get_state" }),
      onRelayed: settings.onRelayed,
    });
    transport.onPiStderr((text) => this.#connections.piStderr(text));
    const pumped = this.#output.pump(transport);
    this.exited = transport.closed.then(async (info) => {
      // Let the pump deliver what pi wrote before it died, then report the exit.
      await pumped;
      if (checkpoints !== undefined) settings.checkpoints?.ended(key, checkpoints);
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
    key: SessionKey = sessionKey(BRIDGE_OWNER, name),
  ): Promise<Session> {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    // Who controlled the session when it last ran here or on another node: control waits for it.
    const formerController = await settings.controlMemory?.(key).recall();
    let transport: ChildProcessTransport;
    try {
      transport = await settings.spawn(spawnOptions(settings, dir, plan), dir);
    } catch (cause) {
      throw new BridgeError(BridgeErrorCode.SpawnFailed, `Cannot start pi for session ${name}`, {
        cause,
      });
    }
    const session = new Session(name, key, dir, transport, settings, plan, formerController);
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
    return this.#connections.attached;
  }

  /** What the history shows of this session while pi runs; `undefined` once pi has exited. */
  live(): LiveState | undefined {
    if (this.#exit !== null) return undefined;
    const file = this.#file.current;
    const name = this.#output.announcedName;
    return {
      state: this.#output.streaming ? "running" : "idle",
      lastActivityMs: this.#output.lastRunRecordAt,
      touchedMs: this.#lastActivity(),
      ...(name === undefined ? {} : { name }),
      ...(file === undefined ? {} : { file: file.name, forked: file.forked }),
    };
  }

  /** Milliseconds (performance clock) since the last client left, or since creation. */
  detachedFor(now: number = performance.now()): number {
    return this.#connections.detachedFor(now);
  }

  /** Milliseconds since the last record in either direction. */
  idleFor(now: number = Date.now()): number {
    return now - this.#lastActivity();
  }

  /** The last record in either direction (`Date.now()` time). */
  #lastActivity(): number {
    return Math.max(this.#input.lastInputAt, this.#output.lastRecordAt);
  }

  /**
   * Attaches a connection beside the others: it learns who controls (a `bridge_control` record,
   * also sent to the others), then gets the run in progress so far (a `bridge_run_snapshot`,
   * while pi streams) and the dialogs pi is still waiting on. A session whose pi has exited
   * closes the connection with the exit reason.
   */
  attach(connection: SessionConnection): void {
    if (this.#exit !== null || this.#stopping) {
      connection.close(...endCode(this.#exit));
      return;
    }
    this.#connections.attach(connection);
  }

  /** Detaches a connection (it closed); once none is left, the grace period starts. */
  detach(connection: SessionConnection): void {
    this.#connections.detach(connection);
  }

  /** Makes `connection` the controller (a read-only one is refused with a `bridge_error`). */
  takeControl(connection: SessionConnection): boolean {
    return this.#connections.control.takeControl(connection);
  }

  /** The refusal for a record `connection` may not send (see {@link SessionControl.refusal}). */
  refusal(
    connection: SessionConnection,
    record: { readonly type: string; readonly id?: string | number | undefined },
  ): string | undefined {
    return this.#connections.control.refusal(connection, record);
  }

  /**
   * Writes one record (already checked by the policy) to pi's stdin. Returns `false` when pi's
   * input has backed up past `maxStdinBytes`: the caller should shed the client. A command from
   * `from` goes to pi under the bridge's own id, so pi's response goes back to `from` alone, with
   * `id` (the client's, if any) restored, whatever ids other clients use.
   */
  write(
    line: string,
    uiResponseId?: string,
    from?: SessionConnection,
    id?: string | number,
  ): boolean {
    if (this.#exit !== null) return true;
    if (uiResponseId !== undefined || from === undefined) {
      if (!this.#input.write(line)) return false;
      if (uiResponseId !== undefined) this.#connections.answered(uiResponseId, from);
      return true;
    }
    const runCheckpoints = this.#runCheckpoints;
    const prompt = runCheckpoints?.promptOf(line, this.inRun);
    // Routed in the same task as the write: pi's response cannot arrive before its route.
    const routed = this.#router.route(line, from, id);
    // The run's checkpoint is taken before pi has the prompt: nothing pi does escapes it.
    const written =
      runCheckpoints !== undefined && prompt !== undefined
        ? runCheckpoints.hold(prompt, routed.line)
        : this.#input.write(routed.line);
    if (written) return true;
    this.#router.unroute(routed.bridgeId);
    return false;
  }

  /** Whether pi is in a run, or a prompt waits for its run's checkpoint. */
  get inRun(): boolean {
    return this.#output.streaming || (this.#runCheckpoints?.holding ?? false);
  }

  /** The id of the connection in control (`bridge_control`'s `you.id`), if one is. */
  get controllerId(): number | undefined {
    return this.#connections.control.controller?.id;
  }

  /**
   * Sends the bridge's own command to pi and resolves with pi's response, which no client sees.
   * Rejects when pi exits or does not answer in time.
   */
  request(command: Record<string, unknown>): Promise<Record<string, unknown>> {
    if (this.#exit !== null || this.#stopping) {
      return Promise.reject(new BridgeError(BridgeErrorCode.SessionStopped, "pi is not running"));
    }
    return this.#router.request(command, (text) => this.#input.writeRaw(text));
  }

  /** Names the session through pi (`set_session_name`): pi saves the name and tells the client. */
  async setName(name: string): Promise<void> {
    const response = await this.request({ type: "set_session_name", name });
    if (response.success !== true) {
      const reason = typeof response.error === "string" ? response.error : "pi refused the name";
      throw new BridgeError(BridgeErrorCode.PiError, reason);
    }
    this.#output.named(name);
  }

  /** The session name pi announced since it started (`null`: cleared); `undefined` if none. */
  get announcedName(): string | null | undefined {
    return this.#output.announcedName;
  }

  /** Stops pi gracefully (stdin first) after closing the attached sockets; resolves with the exit. */
  async close(reason: CloseReason): Promise<SessionExit> {
    // A resume must continue the file the user moved to, even right after the move.
    await this.#file.settled();
    if (!this.#stopping && this.#exit === null) {
      this.#stopping = true;
      this.#state = "stopping";
      const code =
        reason === "shutdown" ? BridgeCloseCode.GoingAway : BridgeCloseCode.SessionClosed;
      this.#connections.closeAll(code, closeReason({ reason }));
      await this.#transport.close();
      // A bridge that stops next must have written who controlled, for its next start.
      await this.#controlMemory?.settled();
      safeLog(this.#settings.logger, { event: "session_closed", session: this.key, reason });
    }
    return this.exited;
  }

  /**
   * The bridge lost the right to run this session (its cluster lease): kills pi at once, before
   * another node's pi starts on the file, and closes every socket with 1012 (service restart), on
   * which clients reconnect, reaching the session's new owner.
   */
  fence(): void {
    this.#transport.kill("SIGKILL");
    this.#controlMemory?.stop();
    this.#settings.checkpoints?.fence(this.key);
    if (this.#exit !== null) return;
    this.#stopping = true;
    this.#state = "stopping";
    this.#connections.closeAll(SERVICE_RESTART, closeReason({ reason: "fenced" }));
    safeLog(this.#settings.logger, { event: "session_fenced", session: this.key });
  }

  /** Sends a signal to pi at once (tests, emergencies); the exit is reported as usual. */
  kill(signal: "SIGTERM" | "SIGKILL" = "SIGTERM"): void {
    this.#transport.kill(signal);
  }

  /** A snapshot for the API. */
  info(): SessionInfo {
    return {
      name: this.name,
      state: this.#state,
      streaming: this.#output.streaming,
      attached: this.attached,
      viewers: this.#connections.control.connections.size,
      controller: this.#connections.control.controller?.label ?? null,
      pid: this.#exit === null ? (this.#transport.pid ?? null) : null,
      createdAt: new Date(this.#createdAt).toISOString(),
      lastActivity: new Date(this.#lastActivity()).toISOString(),
      pendingDialogs: this.#dialogs.size(),
      bufferedAmount: this.#fanOut.bufferedAmount(),
      peakBufferedAmount: this.#fanOut.peakBufferedAmount(),
      pauses: this.#fanOut.pauses,
      exit: this.#exit,
      resumedFrom: this.#plan.resumedFrom ?? null,
    };
  }

  #onExit(exitCode: number | null, signal: string | null, stderrTail: string): SessionExit {
    this.#state = "exited";
    this.#output.ended();
    this.#dialogs.clear();
    this.#router.clear();
    const exit: SessionExit = { exitCode, signal, stderrTail, stoppedByBridge: this.#stopping };
    this.#exit = exit;
    safeLog(this.#settings.logger, {
      event: "pi_exit",
      session: this.key,
      exitCode,
      signal,
      stderrTail,
    });
    this.#connections.closeAll(...endCode(exit));
    return exit;
  }
}
