import { type ExtensionUiRequest, parseInbound, type RpcEvent } from "@pi-kit/protocol";
import { BRIDGE_RUN_SNAPSHOT, isRunSnapshot } from "@pi-kit/protocol/bridge";
import { applyUiRequest, EMPTY_UI_STATE, type ExtensionUiState } from "../extension-ui/ui-state.ts";
import type { SessionStamp } from "../session/session-snapshot.ts";
import type { TransportFrame } from "../transports/transport.ts";
import type { BashRuns } from "./bash-runs.ts";
import type { ClientParts } from "./client-parts.ts";
import type { ResponseRecord } from "./pending-requests.ts";

/** Where the router delivers what it reads: the client's parts and its direct bash calls. */
export interface InboundTargets extends ClientParts {
  /** Direct bash calls, which take their streamed output. */
  readonly bash: BashRuns;
}

/**
 * Dispatches what pi sends, frame by frame: responses to the calls waiting for them, events to the
 * session model, the listeners and the run tracker, extension-UI requests to the dialogs or the
 * retained UI state; anything else is reported as a diagnostic.
 */
export class InboundRouter {
  readonly #to: InboundTargets;
  #uiState: ExtensionUiState = EMPTY_UI_STATE;
  // The model's stamp when each response was read, for resync (see SessionStamp).
  readonly #stamps = new WeakMap<object, SessionStamp>();

  constructor(targets: InboundTargets) {
    this.#to = targets;
  }

  /** Extension statuses, widgets, title and editor text, as the requests so far set them. */
  get uiState(): ExtensionUiState {
    return this.#uiState;
  }

  /** The session model's stamp when `response` was read. */
  stampOf(response: object): SessionStamp | undefined {
    return this.#stamps.get(response);
  }

  /** Dispatches one frame read from the transport. */
  readonly route = (frame: TransportFrame): void => {
    const { hub, pending, session } = this.#to;
    if (typeof frame !== "string") {
      hub.report({
        kind: "protocol_error",
        message: frame.message,
        error: frame,
        record: frame.raw,
      });
      return;
    }
    const inbound = parseInbound(frame);
    switch (inbound.kind) {
      case "response":
        this.#stamps.set(inbound.response, session.stamp());
        pending.deliver(inbound.response);
        return;
      case "event":
        this.#event(inbound.event);
        return;
      case "ui_request":
        this.#uiRequest(inbound.request);
        return;
      case "unknown":
        if (inbound.value.type === BRIDGE_RUN_SNAPSHOT) {
          this.#runSnapshot(inbound.value, frame);
          return;
        }
        // A success response to a command type this package does not know (a raw send to a newer pi).
        if (inbound.value.type === "response" && typeof inbound.value.success === "boolean") {
          pending.deliver(inbound.value as unknown as ResponseRecord);
          return;
        }
        hub.report({
          kind: "unknown_record",
          message: `ignored a record of unknown type "${inbound.value.type}"`,
          record: inbound.value,
        });
        return;
      case "error":
        hub.report({
          kind: "protocol_error",
          message: inbound.error.message,
          error: inbound.error,
          record: frame,
        });
        return;
    }
  };

  // The bridge's account of the run in progress, sent as this connection attached mid-run (pi's
  // `get_messages` lacks the message being streamed). Its records apply as live ones would, except
  // the `agent_start` of a run this client already follows (a reconnect), which would count twice.
  #runSnapshot(value: unknown, frame: string): void {
    const { hub, tracker } = this.#to;
    if (!isRunSnapshot(value)) {
      hub.report({
        kind: "protocol_error",
        message: "a bridge_run_snapshot record without its list of records",
        record: frame,
      });
      return;
    }
    for (const record of value.records) {
      const inbound = parseInbound(record);
      if (inbound.kind !== "event") {
        hub.report({
          kind: "protocol_error",
          message: `a bridge_run_snapshot holds a record that is not a pi event (${inbound.kind})`,
          ...(inbound.kind === "error" ? { error: inbound.error } : {}),
          record,
        });
        continue;
      }
      if (inbound.event.type === "agent_start" && tracker.running) continue;
      this.#event(inbound.event);
    }
  }

  #event(event: RpcEvent): void {
    const { session, capabilities, bash, hub, tracker } = this.#to;
    session.handleEvent(event);
    if (event.type === "bash_execution_update") bash.streamed(event);
    if (event.type === "agent_settled")
      capabilities.learnSettled(typeof event.aborted === "boolean");
    hub.emit(event);
    tracker.handle(event);
  }

  #uiRequest(request: ExtensionUiRequest): void {
    switch (request.method) {
      case "select":
      case "confirm":
      case "input":
      case "editor":
        this.#to.dialogs.open(request, {
          run: this.#to.tracker.running,
          calls: [...this.#to.dialogHosts],
        });
        break;
      default:
        this.#uiState = applyUiRequest(this.#uiState, request);
        this.#to.session.setUi(this.#uiState);
    }
    this.#to.hub.emit(request);
  }
}
