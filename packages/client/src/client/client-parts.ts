import type { DialogManager } from "../extension-ui/dialog-manager.ts";
import type { SessionModel } from "../session/session-model.ts";
import type { CapabilityTracker } from "./capabilities.ts";
import type { ClientEvent } from "./client-events.ts";
import type { EventHub } from "./event-hub.ts";
import type { PendingRequests } from "./pending-requests.ts";
import type { RunTracker } from "./run-tracker.ts";

/** The stateful parts a `PiClient` is made of, which its helpers (router, calls, bash) work on. */
export interface ClientParts {
  /** Listeners and diagnostics. */
  readonly hub: EventHub<ClientEvent>;
  /** Calls waiting for pi's answer. */
  readonly pending: PendingRequests;
  /** Whether a run is in progress, and waits for its end. */
  readonly tracker: RunTracker;
  /** Open extension dialogs. */
  readonly dialogs: DialogManager;
  /** The observable session. */
  readonly session: SessionModel;
  /** What the connected pi supports. */
  readonly capabilities: CapabilityTracker;
  /** Pending calls during which pi can open a dialog (see `OPENS_DIALOGS`), by id. */
  readonly dialogHosts: Set<string>;
}
