import type { BashResult, CommandResponseData, SessionState } from "@pi-kit/protocol";
import { DialogManager } from "../extension-ui/dialog-manager.ts";
import { SessionModel } from "../session/session-model.ts";
import {
  isReconnectingTransport,
  isSharedTransport,
  isStderrTransport,
  type Transport,
  type TransportCloseInfo,
} from "../transports/transport.ts";
import { BashRuns } from "./bash-runs.ts";
import { CapabilityTracker, capabilitiesFor } from "./capabilities.ts";
import type { ClientEvent } from "./client-events.ts";
import type { PiClientOptions } from "./client-options.ts";
import type { ClientParts } from "./client-parts.ts";
import { CommandCaller } from "./command-caller.ts";
import { opt } from "./commands.ts";
import { EventHub } from "./event-hub.ts";
import { InboundRouter } from "./inbound-router.ts";
import { type CallOptions, PendingRequests } from "./pending-requests.ts";
import { RunTracker } from "./run-tracker.ts";
import { SessionSync } from "./session-sync.ts";
import { TransportLink } from "./transport-link.ts";

const DEFAULT_TIMEOUT_MS = 30_000;

/** What the parts call back into the client for. */
export interface ClientHooks {
  /** The client's `getState`, which records pi's answer in the model and the tracker. */
  getState(options?: CallOptions): Promise<SessionState>;
  /** Why the transport closed, once it has. */
  closeInfo(): TransportCloseInfo | undefined;
}

/** A client's parts, wired to each other and reading the transport. */
export interface AssembledClient extends ClientParts {
  /** Sends commands and interprets the answers. */
  readonly caller: CommandCaller;
  /** Direct bash calls. */
  readonly bash: BashRuns;
  /** Dispatches what pi sends. */
  readonly router: InboundRouter;
  /** Writes to the transport; tells when it closed. */
  readonly link: TransportLink;
}

/**
 * Builds the parts of a `PiClient` over `transport` and wires them to each other: the pending
 * calls, run tracker, dialogs, session model and capabilities, the helpers working on them, and
 * the link that starts reading the transport.
 */
export function assembleClient(
  transport: Transport,
  options: PiClientOptions,
  hooks: ClientHooks,
): AssembledClient {
  const given = options.capabilities;
  const capabilities = new CapabilityTracker(
    typeof given === "string" ? capabilitiesFor(given) : (given ?? capabilitiesFor("1")),
  );
  const hub = new EventHub<ClientEvent>();
  const report = hub.report;
  const dialogHosts = new Set<string>();
  // The parts call each other through callbacks that run only after this returns, so a callback
  // may name a part declared further down.
  // A dialog opened during a call goes stale once pi answered it, on time or late.
  const pending = new PendingRequests(report, (id) => {
    if (dialogHosts.delete(id)) dialogs.release(id);
  });
  const session = new SessionModel(
    {
      getState: () => hooks.getState(),
      getMessages: async () => {
        const response = await caller.call({ type: "get_messages" }, {});
        const data = response.data as CommandResponseData["get_messages"];
        return { messages: data.messages, at: router.stampOf(response) };
      },
      get getEntries() {
        if (!capabilities.current.supports("get_entries")) return undefined;
        return async (since?: string) => {
          const response = await caller.call({ type: "get_entries", ...opt({ since }) }, {});
          const data = response.data as CommandResponseData["get_entries"];
          return { ...data, at: router.stampOf(response) };
        };
      },
    },
    report,
  );
  const tracker = new RunTracker({
    announcesSettled: () => capabilities.current.agentSettled,
    barrier: () => hooks.getState(),
    settled: (outcome) => {
      dialogs.cancelStale();
      session.runSettled();
      hub.emit({ type: "run_settled", aborted: outcome.aborted });
      // Bash messages pi held during the run are in its transcript now: fetch pi's copies.
      if (session.provisional) void bash.reconcile();
    },
    unannounced: () =>
      report({
        kind: "unannounced_run_end",
        message:
          "pi reported idle while a run was open and never announced its end (a 0.73.x compact or new_session during a stream, or events lost in a reconnect); settled it as aborted",
      }),
  });
  const dialogs: DialogManager = new DialogManager(
    {
      respond: (response) => void link.write(response).catch(() => {}),
      report,
      changed: (open) => session.setDialogs(open),
    },
    options.dialogHandler,
  );
  const parts: ClientParts = {
    hub,
    pending,
    tracker,
    dialogs,
    session,
    capabilities,
    dialogHosts,
  };
  const closed = (): boolean => hooks.closeInfo() !== undefined;
  const sync = new SessionSync({ ...parts, closed });
  const caller: CommandCaller = new CommandCaller({
    ...parts,
    transport,
    defaultTimeoutMs: options.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS,
    write: (record) => link.write(record),
    closeInfo: hooks.closeInfo,
    getState: (callOptions) => hooks.getState(callOptions),
    sessionChanged: (reason, dialogsBefore) => sync.changed(reason, dialogsBefore),
  });
  const bash: BashRuns = new BashRuns({
    ...parts,
    newId: () => caller.newId(),
    request: async (command, callOptions) =>
      (await caller.call(command, callOptions)).data as BashResult,
    closed,
  });
  const router: InboundRouter = new InboundRouter({ ...parts, bash });
  if (isReconnectingTransport(transport)) {
    transport.onReconnect((info) => sync.reconnected(info));
  }
  if (isSharedTransport(transport)) {
    transport.onDialogClosed((id) => dialogs.answeredElsewhere(id));
  }
  if (isStderrTransport(transport)) {
    transport.onPiStderr((text) => hub.emit({ type: "pi_stderr", text }));
  }
  const link: TransportLink = new TransportLink(transport, report, router.route);
  return { ...parts, caller, bash, router, link };
}
