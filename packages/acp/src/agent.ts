/**
 * The ACP agent: `initialize`, `session/new`, `load`, `resume`, `list`, `close`, `prompt`,
 * `cancel` and `set_config_option` over a {@link SessionBackend}. Every failure answers the
 * request with a JSON-RPC error; none ends the connection or the process.
 */
import {
  type AgentApp,
  type AgentContext,
  agent,
  type ClientCapabilities,
  methods,
  PROTOCOL_VERSION,
  RequestError,
} from "@agentclientprotocol/sdk";
import { AcpSession, type SessionPeer } from "./acp-session.ts";
import type { SessionBackend } from "./backend/session-backend.ts";
import { requestError } from "./errors.ts";

/** Options of {@link createAcpAgent}. */
export interface AcpAgentOptions {
  /** Where sessions live: `bridgeBackend(...)` or `localBackend(...)`. */
  readonly backend: SessionBackend;
  /** Reports problems that answer no request (a failed cancel, a lost update); stderr in the CLI. */
  readonly log?: (message: string) => void;
  /** The version `initialize` reports. */
  readonly version?: string;
}

/** Runs `work`, turning any failure into the JSON-RPC error that answers the request. */
async function answer<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw requestError(error);
  }
}

/**
 * An ACP agent app driving pi sessions; connect it to the editor's stream.
 * Connect it with {@link connectAcpAgent}, or the SDK's `connect` and `ndJsonStream`.
 */
export function createAcpAgent(options: AcpAgentOptions): AgentApp {
  const { backend } = options;
  const log = options.log ?? (() => {});
  const sessions = new Map<string, AcpSession>();
  let peer: AgentContext | undefined;
  let capabilities: ClientCapabilities | undefined;

  const sessionPeer: SessionPeer = {
    shows: {
      get forms() {
        return capabilities?.elicitation?.form != null;
      },
      get notices() {
        return capabilities?.session?.notices != null;
      },
    },
    update(sessionId, update) {
      peer?.notify(methods.client.session.update, { sessionId, update }).catch((error: unknown) => {
        log(`session/update for ${sessionId} was not sent: ${String(error)}`);
      });
    },
    requestPermission(params, signal) {
      if (peer === undefined) return Promise.resolve({ outcome: { outcome: "cancelled" } });
      return peer.request(methods.client.session.requestPermission, params, {
        cancellationSignal: signal,
        stopWaitingOnCancel: true,
      });
    },
    elicit(params, signal) {
      if (peer === undefined) return Promise.resolve({ action: "cancel" });
      return peer.request(methods.client.elicitation.create, params, {
        cancellationSignal: signal,
        stopWaitingOnCancel: true,
      });
    },
  };

  const session = (sessionId: string): AcpSession => {
    const found = sessions.get(sessionId);
    if (found === undefined) {
      throw new RequestError(-32002, `No open session "${sessionId}": create or load it first`, {
        sessionId,
      });
    }
    return found;
  };

  /** Opens stored session `id` as an ACP session (replacing this connection's earlier one). */
  const reopen = async (id: string, signal: AbortSignal): Promise<AcpSession> => {
    if (!backend.stores) {
      throw RequestError.invalidRequest(
        undefined,
        "this agent runs a local pi, which keeps no sessions to load (start it with --url)",
      );
    }
    const opened = await backend.open(id, signal);
    if (opened === undefined) {
      throw new RequestError(-32002, `The bridge has no session "${id}"`, { sessionId: id });
    }
    await sessions.get(id)?.close();
    const opening = new AcpSession(opened, sessionPeer);
    sessions.set(id, opening);
    return opening;
  };

  const app = agent({ name: "pi-kit-acp" })
    .onConnect((connection) => {
      peer = connection.client;
      void connection.closed.finally(async () => {
        peer = undefined;
        await Promise.allSettled([...sessions.values()].map((s) => s.close()));
        sessions.clear();
      });
    })
    .onRequest(methods.agent.initialize, ({ params }) => {
      capabilities = params.clientCapabilities;
      return {
        protocolVersion: Math.min(params.protocolVersion, PROTOCOL_VERSION),
        agentCapabilities: {
          loadSession: backend.stores,
          promptCapabilities: { image: true, embeddedContext: true },
          sessionCapabilities: backend.stores ? { list: {}, resume: {}, close: {} } : { close: {} },
        },
        authMethods: [],
        agentInfo: {
          name: "pi-kit-acp",
          title: "pi (pi-kit)",
          version: options.version ?? "0.1.0",
        },
      };
    })
    // No sign-in step: the bridge token comes from the command line. Clients that authenticate anyway get an empty success.
    .onRequest(methods.agent.authenticate, () => ({}))
    .onRequest(methods.agent.session.new, ({ params, signal }) =>
      answer(async () => {
        const opened = await backend.create(params.cwd, signal);
        const created = new AcpSession(opened, sessionPeer);
        sessions.set(created.id, created);
        void created.announceCommands();
        return { sessionId: created.id, configOptions: await created.configOptions() };
      }),
    )
    .onRequest(methods.agent.session.load, ({ params, signal }) =>
      answer(async () => {
        const loaded = await reopen(params.sessionId, signal);
        loaded.replay();
        void loaded.announceCommands();
        return { configOptions: await loaded.configOptions() };
      }),
    )
    .onRequest(methods.agent.session.resume, ({ params, signal }) =>
      answer(async () => {
        const resumed = await reopen(params.sessionId, signal);
        void resumed.announceCommands();
        return { configOptions: await resumed.configOptions() };
      }),
    )
    .onRequest(methods.agent.session.list, ({ params, signal }) =>
      answer(async () => {
        const page = await backend.list(params.cursor ?? undefined, signal);
        return {
          sessions: page.sessions.map((stored) => ({
            sessionId: stored.id,
            // A bridge session works in the bridge's workspace, which the editor cannot see.
            cwd: params.cwd ?? "/",
            title: stored.title ?? null,
            updatedAt: stored.updatedAt ?? null,
          })),
          nextCursor: page.nextCursor,
        };
      }),
    )
    .onRequest(methods.agent.session.close, ({ params }) =>
      answer(async () => {
        const closing = session(params.sessionId);
        sessions.delete(params.sessionId);
        await closing.close();
        return {};
      }),
    )
    .onRequest(methods.agent.session.prompt, ({ params }) =>
      answer(async () => ({ stopReason: await session(params.sessionId).prompt(params.prompt) })),
    )
    .onRequest(methods.agent.session.setConfigOption, ({ params }) =>
      answer(async () => {
        const value = params.value;
        const options =
          typeof value === "string"
            ? await session(params.sessionId).setConfigOption(params.configId, value)
            : undefined;
        if (options === undefined) {
          throw RequestError.invalidParams(
            { configId: params.configId },
            `no option "${params.configId}" takes ${JSON.stringify(value)}`,
          );
        }
        return { configOptions: options };
      }),
    )
    .onNotification(methods.agent.session.cancel, ({ params }) => {
      sessions
        .get(params.sessionId)
        ?.cancel()
        .catch((error: unknown) => log(`cancel of ${params.sessionId} failed: ${String(error)}`));
    });
  return app;
}
