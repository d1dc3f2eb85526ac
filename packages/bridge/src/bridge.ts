/**
 * `createBridge`: the Hono app (session API plus `GET /sessions/:name/ws`) and the lifecycle of
 * the pi processes behind it. Runtime-independent: the WebSocket upgrade comes from an adapter.
 */

import { join, relative } from "node:path";
import type {
  ChildProcessOptions,
  ChildProcessTransport,
  StopTimeouts,
} from "@pi-kit/client/process";
import { spawnPi } from "@pi-kit/client/process";
import { type Context, Hono } from "hono";
import { cors } from "hono/cors";
import { BridgeCloseCode } from "./close-codes.ts";
import { BridgeError } from "./errors.ts";
import { healthRoutes } from "./health/health-routes.ts";
import { spawnCheck, writableCheck } from "./health/readiness.ts";
import { failure, sessionRoutes } from "./http/routes.ts";
import { type BridgeLogger, jsonLogger, logLabel, originLabel, safeLog } from "./logger.ts";
import { createSandbox, type SandboxOption } from "./sandbox/create-sandbox.ts";
import { type CommandPolicyOptions, createCommandPolicy } from "./security/command-policy.ts";
import { createOriginCheck } from "./security/origin.ts";
import { prepareSessionsDir } from "./security/sessions-dir.ts";
import {
  createTicketVerifier,
  looksLikeTicket,
  TicketError,
  type TicketOptions,
  TicketRefusal,
} from "./security/tickets.ts";
import {
  assertUsableToken,
  offeredProtocols,
  presentedToken,
  SUBPROTOCOL,
  tokensEqual,
} from "./security/token.ts";
import { type Access, BRIDGE_ACCESS, ticketAccess } from "./sessions/access.ts";
import { BridgeHistory } from "./sessions/bridge-history.ts";
import { BRIDGE_OWNER, sessionKey, splitKey, userOwner } from "./sessions/owner.ts";
import type { PiProcessSpec } from "./sessions/session.ts";
import { isSessionName, SessionRegistry } from "./sessions/session-registry.ts";
import { SessionStore } from "./sessions/store/session-store.ts";
import { planStart } from "./sessions/store/start-plan.ts";
import { Workspaces } from "./sessions/workspaces.ts";
import { relayEvents } from "./ws/relay.ts";
import type { WebSocketRuntime } from "./ws/runtime.ts";

/** The close code that says why a pi-kit client's handshake was refused, by HTTP status. */
const REFUSAL_CLOSE_CODES: Partial<Record<number, BridgeCloseCode>> = {
  401: BridgeCloseCode.Unauthorized,
  403: BridgeCloseCode.Forbidden,
  404: BridgeCloseCode.NoSuchSession,
  503: BridgeCloseCode.TryAgainLater,
};

/** How stale the history's index may get before reading it rescans the sessions directory. */
const HISTORY_RESCAN_MS = 60_000;
/** How long after a change the history's index file is saved. */
const INDEX_SAVE_DELAY_MS = 1000;

/** True for a WebSocket handshake that offers the `pi-kit.v1` subprotocol. */
function offersPiKit(c: Context): boolean {
  return (
    c.req.header("upgrade")?.toLowerCase() === "websocket" &&
    offeredProtocols(c.req.raw.headers).includes(SUBPROTOCOL)
  );
}

/** Limits of a bridge; every one has a default (see {@link DEFAULT_LIMITS}). */
export interface BridgeLimits {
  /** Most sessions at once. Default 16. Past it: HTTP 503. */
  readonly maxSessions?: number;
  /** Most sessions of one ticket user at once. Default 4. Past it: HTTP 503 (close 1013). */
  readonly maxSessionsPerUser?: number;
  /** How long a session without a client keeps its pi running. Default 30 s. */
  readonly graceMs?: number;
  /** Reap an attached session after this long without a record either way; 0 = never. Default 1 h. */
  readonly idleMs?: number;
  /** Largest inbound message (one record) in UTF-8 bytes. Default 1 MiB. Past it: close 1009. */
  readonly maxRecordBytes?: number;
  /** Sustained inbound messages per second per connection. Default 50. Past it: close 1008. */
  readonly messagesPerSecond?: number;
  /** Inbound burst allowance per connection. Default 100. */
  readonly messageBurst?: number;
  /** Socket bytes queued before the bridge stops reading pi. Default 1 MiB. */
  readonly highWaterMark?: number;
  /** How long a socket may stay over the high-water mark before it is closed (1013). Default 30 s. */
  readonly stallTimeoutMs?: number;
  /** Open dialogs kept per session for re-sending. Default 32. */
  readonly maxPendingDialogs?: number;
  /** Bytes of input queued for a pi that does not read it before the client is shed. Default 8 MiB. */
  readonly maxStdinBytes?: number;
}

/** The defaults of {@link BridgeLimits}. */
export const DEFAULT_LIMITS: Readonly<Required<BridgeLimits>> = {
  maxSessions: 16,
  maxSessionsPerUser: 4,
  graceMs: 30_000,
  idleMs: 3_600_000,
  maxRecordBytes: 1024 * 1024,
  messagesPerSecond: 50,
  messageBurst: 100,
  highWaterMark: 1024 * 1024,
  stallTimeoutMs: 30_000,
  maxPendingDialogs: 32,
  maxStdinBytes: 8 * 1024 * 1024,
};

/** Options of {@link createBridge}. */
export interface BridgeOptions {
  /** The pi command every session runs. Clients never choose the command or its arguments. */
  readonly pi: PiProcessSpec;
  /** The shared secret clients present (see `generateToken`): it opens the bridge's own sessions. */
  readonly token: string;
  /**
   * Accept per-user tickets (JWTs an application signs for its user) where the token travels:
   * each user opens only the sessions their ticket names, in a directory of their own.
   */
  readonly tickets?: TicketOptions;
  /**
   * The directory holding one session directory per session name (see `defaultSessionsDir`).
   * Created with mode 0700; refused when another user owns it or could write to it.
   */
  readonly sessionsDir: string;
  /**
   * Gives each session a working directory of its own in this directory, laid out as in
   * `sessionsDir` (a ticket user's under `_users/<user>/`), instead of every pi working in
   * `pi.cwd`: set it when several users share a bridge. Created with mode 0700 and refused when
   * unsafe, as `sessionsDir` is; a deleted session's workspace goes with it. Under the sandbox a
   * pi sees only its own workspace.
   */
  readonly workspacesDir?: string;
  /** pi arguments that put its session files in `sessionDir`. Default `["--session-dir", dir]`. */
  readonly sessionArgs?: (sessionDir: string) => readonly string[];
  /** Browser origins allowed to connect, e.g. `["http://localhost:5173"]`; `"*"` for any. Default none. */
  readonly origins?: readonly string[];
  /** Which records clients may send. Default: every valid command. */
  readonly policy?: CommandPolicyOptions;
  /** Limits; see {@link DEFAULT_LIMITS}. */
  readonly limits?: BridgeLimits;
  /** Whether a WebSocket to an unknown session creates it (else 404). Default `true`. */
  readonly autoCreate?: boolean;
  /** Receives structured log entries. Default: JSON lines on stderr. */
  readonly logger?: BridgeLogger;
  /**
   * Spawns pi for the session whose directory is `sessionDir`; default `spawnPi` from
   * `@pi-kit/client/process` (the current runtime's own API).
   */
  readonly spawn?: (
    options: ChildProcessOptions,
    sessionDir: string,
  ) => Promise<ChildProcessTransport>;
  /**
   * Confines each pi: `"bwrap"` runs it under bubblewrap, seeing only its workspace (`pi.cwd`)
   * and its session directory writable, the rest read-only or absent. Checked when the bridge
   * is created: a `BridgeError` (`invalid_options`) says what is missing.
   */
  readonly sandbox?: SandboxOption;
  /** Timeouts of each pi's graceful stop (stdin close, then SIGTERM, then SIGKILL). */
  readonly stopTimeouts?: StopTimeouts;
}

/** A bridge: mount `app` in any Hono server, and `close()` it on shutdown. */
export interface Bridge {
  /** The routes: `/api/sessions…`, `/sessions/:name/ws`, and `/healthz` and `/readyz` (no token). */
  readonly app: Hono;
  /** The running sessions, for inspection and direct control. */
  readonly sessions: SessionRegistry;
  /** Every session of the bridge's own (static token), running or not: what the HTTP API serves it. */
  readonly history: BridgeHistory;
  /** The history of ticket user `user` (their `sub`): their sessions only. */
  historyOf(user: string): BridgeHistory;
  /** The limits in force, defaults filled in. */
  readonly limits: Readonly<Required<BridgeLimits>>;
  /** Refuses new work, closes every socket (1001), stops every pi gracefully (stdin first) and saves the history's index. */
  close(): Promise<void>;
}

/**
 * Creates a bridge on a runtime's WebSocket support. Most callers use `serveBridge` from
 * `@pi-kit/bridge/node`, `/deno` or `/bun`, which also start the server.
 *
 * @example
 * ```ts
 * import { createBridge, generateToken } from "@pi-kit/bridge";
 * import { denoWebSocket } from "@pi-kit/bridge/deno";
 * const bridge = createBridge(
 *   { pi: { command: "pi", args: ["--mode", "rpc"] }, token: generateToken(), sessionsDir: "./sessions" },
 *   denoWebSocket,
 * );
 * Deno.serve({ hostname: "127.0.0.1", port: 8787 }, bridge.app.fetch);
 * ```
 */
export function createBridge(options: BridgeOptions, runtime: WebSocketRuntime): Bridge {
  assertUsableToken(options.token);
  prepareSessionsDir(options.sessionsDir);
  const workspaces =
    options.workspacesDir === undefined ? undefined : new Workspaces(options.workspacesDir);
  const sandbox = createSandbox(options.sandbox, [
    options.sessionsDir,
    ...(workspaces === undefined ? [] : [workspaces.dir]),
  ]);
  const spawnOf = options.spawn ?? spawnPi;
  const spawn = async (spec: ChildProcessOptions, dir: string) => {
    const placed =
      workspaces === undefined
        ? spec
        : { ...spec, cwd: await workspaces.of(relative(options.sessionsDir, dir)) };
    return spawnOf(sandbox === undefined ? placed : await sandbox.wrap(placed, dir), dir);
  };
  const limits: Required<BridgeLimits> = { ...DEFAULT_LIMITS, ...options.limits };
  const logger = options.logger ?? jsonLogger();
  const policy = createCommandPolicy(options.policy);
  const originAllowed = createOriginCheck(options.origins ?? []);
  const autoCreate = options.autoCreate !== false;
  const tickets = options.tickets === undefined ? undefined : createTicketVerifier(options.tickets);
  /** Each owner's store and history, made when the owner first shows up. */
  const spaces = new Map<string, { store: SessionStore; history: BridgeHistory }>();
  const spaceOf = (owner: string): { store: SessionStore; history: BridgeHistory } => {
    let space = spaces.get(owner);
    if (space === undefined) {
      const store = new SessionStore({
        sessionsDir: join(options.sessionsDir, owner),
        isSessionName,
        logger,
        rescanMs: HISTORY_RESCAN_MS,
        saveDelayMs: INDEX_SAVE_DELAY_MS,
      });
      const history = new BridgeHistory(registry, store, {
        logger,
        owner,
        ...(workspaces === undefined ? {} : { workspaces }),
      });
      space = { store, history };
      spaces.set(owner, space);
    }
    return space;
  };
  const registry: SessionRegistry = new SessionRegistry({
    sessionsDir: options.sessionsDir,
    maxSessions: limits.maxSessions,
    maxSessionsPerUser: limits.maxSessionsPerUser,
    graceMs: limits.graceMs,
    idleMs: limits.idleMs,
    pi: options.pi,
    sessionArgs: options.sessionArgs ?? ((dir) => ["--session-dir", dir]),
    spawn,
    highWaterMark: limits.highWaterMark,
    maxPendingDialogs: limits.maxPendingDialogs,
    maxStdinBytes: limits.maxStdinBytes,
    stopTimeouts: options.stopTimeouts,
    logger,
    planStart: (key) => {
      const { owner, name } = splitKey(key);
      return planStart(spaceOf(owner).store, name, logger);
    },
    onExit: (session) => spaceOf(splitKey(session.key).owner).history.exited(session),
  });
  const history = spaceOf(BRIDGE_OWNER).history;
  let closing: Promise<void> | undefined;

  const reject = (
    c: Context,
    status: 400 | 401 | 403 | 404 | 426 | 503,
    reason: string,
    code?: TicketRefusal,
  ): Response | Promise<Response> => {
    const name = c.req.param("name");
    safeLog(logger, {
      event: "connection_rejected",
      status,
      reason,
      ...(code === undefined ? {} : { code }),
      ...(name === undefined ? {} : { session: logLabel(name, 64) }),
      origin: originLabel(c.req.header("origin")),
    });
    const body = code === undefined ? { reason } : { reason, code };
    // A pi-kit client (one that offers pi-kit.v1) may be a browser, which hides HTTP statuses
    // from scripts: it gets the upgrade and, at once, a close code that says why. Nothing else
    // passes on that socket. Other clients get the status.
    const closeCode = REFUSAL_CLOSE_CODES[status];
    if (closeCode !== undefined && offersPiKit(c)) {
      return runtime.upgrade(
        c,
        { onOpen: (_event, ws) => ws.close(closeCode, JSON.stringify(body)) },
        SUBPROTOCOL,
      );
    }
    return c.json(code === undefined ? { error: reason } : { error: reason, code }, status);
  };

  const app = new Hono();
  /** What each authenticated request may reach, set by the authentication below. */
  const accesses = new WeakMap<Request, Access>();
  const accessOf = (c: Context): Access => {
    const access = accesses.get(c.req.raw);
    // Unreachable past the authentication; refusing keeps a future route from opening everything.
    if (access === undefined) throw new Error("A request reached a session route unauthenticated");
    return access;
  };
  // Preflights carry no credentials, so CORS answers them before the token check.
  app.use(
    "/api/*",
    cors({
      origin: (origin) => (originAllowed(origin) ? origin : null),
      allowMethods: ["GET", "POST", "PATCH", "DELETE"],
      allowHeaders: ["Authorization", "Content-Type"],
      maxAge: 600,
    }),
  );
  // Before authentication: load balancers probe without a token, and learn nothing but a status.
  app.route(
    "/",
    healthRoutes({
      checks: [
        spawnCheck(
          sandbox === undefined
            ? [options.pi]
            : [options.pi, { ...options.pi, command: sandbox.command }],
        ),
        writableCheck(options.sessionsDir),
        ...(workspaces === undefined
          ? []
          : [writableCheck(workspaces.dir, "workspaces_dir", "workspaces directory")]),
      ],
      closing: () => closing !== undefined,
      logger,
    }),
  );
  app.use("*", async (c, next) => {
    if (!originAllowed(c.req.header("origin") ?? null)) {
      return reject(c, 403, "Origin not allowed");
    }
    const token = presentedToken(c.req.raw.headers);
    if (token === undefined) return reject(c, 401, "Missing token");
    if (tokensEqual(token, options.token)) {
      accesses.set(c.req.raw, BRIDGE_ACCESS);
    } else if (tickets !== undefined && looksLikeTicket(token)) {
      try {
        accesses.set(c.req.raw, ticketAccess(await tickets(token)));
      } catch (error) {
        if (!(error instanceof TicketError)) throw error;
        return reject(c, 401, error.message, error.code);
      }
    } else {
      return reject(c, 401, "Wrong token");
    }
    if (closing !== undefined) return reject(c, 503, "The bridge is closing");
    await next();
  });
  app.route(
    "/api",
    sessionRoutes((c) => {
      const access = accessOf(c);
      return { ...access, history: spaceOf(access.owner).history };
    }, logger),
  );

  app.get("/sessions/:name/ws", async (c) => {
    if (c.req.header("upgrade")?.toLowerCase() !== "websocket") {
      return reject(c, 426, "Expected a WebSocket upgrade");
    }
    const offered = offeredProtocols(c.req.raw.headers);
    const protocol = offered.includes(SUBPROTOCOL) ? SUBPROTOCOL : undefined;
    // Browsers insist the server echo one offered entry, and the token entry must never be it.
    if (offered.length > 0 && protocol === undefined) {
      return reject(c, 400, `Offer the ${SUBPROTOCOL} subprotocol`);
    }
    const name = c.req.param("name");
    const access = accessOf(c);
    if (!access.allows(name)) {
      return reject(c, 403, "The ticket does not open this session", TicketRefusal.NotInTicket);
    }
    let session = registry.get(sessionKey(access.owner, name));
    // A session whose pi is not running (never started here, stopped, exited or crashed) is
    // resumed from its files; an unknown one is created unless `autoCreate` is off (or the
    // holder may only watch).
    if (session?.alive !== true) {
      try {
        const create = autoCreate && !access.readOnly;
        session = (await spaceOf(access.owner).history.open(name, create)).session;
      } catch (error) {
        const status = error instanceof BridgeError ? error.status : 500;
        const reason = error instanceof Error ? error.message : String(error);
        if (status === 400 || status === 404 || status === 503) return reject(c, status, reason);
        safeLog(logger, {
          event: "connection_rejected",
          status,
          reason,
          session: logLabel(name, 64),
          origin: originLabel(c.req.header("origin")),
        });
        return failure(c, error);
      }
    }
    const events = relayEvents({
      session,
      runtime,
      policy,
      limits,
      logger,
      origin: originLabel(c.req.header("origin")),
      readOnly: access.readOnly,
      label: c.req.query("label"),
    });
    return runtime.upgrade(c, events, protocol);
  });

  return {
    app,
    sessions: registry,
    history,
    historyOf: (user) => spaceOf(userOwner(user)).history,
    limits,
    close() {
      closing ??= registry
        .closeAll()
        .then(() => Promise.all([...spaces.values()].map((space) => space.history.close())))
        .then(() => safeLog(logger, { event: "bridge_closed" }));
      return closing;
    },
  };
}
