import type { ImageContent, PromptDisposition, StreamingBehavior } from "@pi-kit/protocol";
import type { DialogHandling } from "../extension-ui/dialog-manager.ts";
import type { ExtensionUiState } from "../extension-ui/ui-state.ts";
import type { PiCapabilities, PiVersionLine } from "./capabilities.ts";
import type { CallOptions } from "./pending-requests.ts";
import type { RunOutcome } from "./run-tracker.ts";

/** Options for {@link PiClient}. */
export interface PiClientOptions {
  /** Skip version detection: the pi line or full capabilities. Without it `connect` probes. */
  capabilities?: PiCapabilities | PiVersionLine;
  /** Timeout for quick commands in ms (30 000 by default); long ones have none unless given per call. */
  defaultTimeoutMs?: number;
  /**
   * How extension dialogs are answered: a handler that returns the answer, or `"manual"` (each
   * dialog waits in `session.dialogs` for `client.ui.answer` or `client.ui.cancel`, its own
   * timeout, or until it goes stale). Without either every dialog is cancelled at once.
   */
  dialogHandler?: DialogHandling;
}

/** Options for {@link PiClient.connect}. */
export interface ConnectOptions extends PiClientOptions {
  /** Cancels the handshake. */
  signal?: AbortSignal;
  /**
   * Milliseconds pi has to answer the handshake (`get_state`, then the capability probe); 60 000
   * by default (0.73.x starts in about a second). `connect` rejects when they pass, naming itself.
   */
  handshakeTimeoutMs?: number;
  /**
   * Load the transcript with `session.resync()` before resolving. Defaults to true for a
   * reconnecting transport (a bridge session may predate this client), false otherwise.
   */
  resync?: boolean;
}

/** Options for `prompt`. */
export interface PromptOptions extends CallOptions {
  images?: readonly ImageContent[];
  /** Required while the agent streams: queue as steering or follow-up. */
  streamingBehavior?: StreamingBehavior;
}

/** Options for `steer` and `followUp`. */
export interface QueueOptions extends CallOptions {
  images?: readonly ImageContent[];
}

/** Options for `bash`. */
export interface BashOptions extends CallOptions {
  /** Keep the output out of the model's context (ignored by 0.73.x). */
  excludeFromContext?: boolean;
  /** Receives this call's streamed output (1.x; 0.73.x streams nothing). */
  onOutput?: (delta: string) => void;
}

/** Options for `promptAndWait`: the prompt's options plus a bound on the whole wait. */
export interface PromptAndWaitOptions extends PromptOptions {
  /** Bounds the wait for the run to settle (the prompt call itself uses `timeoutMs`). */
  settleTimeoutMs?: number;
}

/** How a prompt went, once its run (if any) is over. */
export interface RunResult extends RunOutcome {
  /** pi's disposition; on 0.73.x, which gives none, inferred (`started` or `handled`). */
  readonly disposition: PromptDisposition;
}

/** Extension-UI access: dialogs and retained state. */
export interface ClientUi {
  /** Registers the dialog handler or `"manual"` (replacing any); returns a function that removes it. */
  setDialogHandler(handler: DialogHandling | undefined): () => void;
  /** Answers an open dialog by id; `undefined` cancels. False when it is no longer open. */
  answer(id: string, reply: string | boolean | undefined): boolean;
  /** Cancels an open dialog by id. */
  cancel(id: string): boolean;
  /** The retained statuses, widgets, title and editor text. */
  readonly state: ExtensionUiState;
}
