import type { PendingDialog, ToolExecution } from "@pi-kit/client";
import type { AgentMessage, ToolCall, ToolResultMessage } from "@pi-kit/protocol";
import type { PiStrings } from "./i18n/i18n.ts";

/** Anything a Lit template can render (a `TemplateResult`, a string, `nothing`, a node…). */
export type Renderable = unknown;

/** Where a tool call is in its life (`awaiting`: an extension asks the user before it runs). */
export type ToolStatus =
  | "preparing"
  | "pending"
  | "awaiting"
  | "running"
  | "done"
  | "error"
  | "aborted";

/** What a tool renderer receives. */
export interface ToolRenderContext {
  /** The call as the model wrote it (`arguments` is `{}` while streaming). */
  readonly call: ToolCall;
  /** The argument JSON received so far, while the model is still writing the call. */
  readonly partialArguments: string | undefined;
  /** The live execution (latest run only), with `partialResult` while it runs. */
  readonly execution: ToolExecution | undefined;
  /** The tool result message, once the tool has finished. */
  readonly result: ToolResultMessage | undefined;
  readonly status: ToolStatus;
  readonly strings: PiStrings;
}

/** Renders the body of a tool card (the header with name, status and duration stays). */
export type ToolRenderer = (context: ToolRenderContext) => Renderable;

/** What a message renderer receives besides the message. */
export interface MessageRenderContext {
  /** True while the message is still streaming. */
  readonly streaming: boolean;
  readonly strings: PiStrings;
}

/** Renders a whole message of one role (replacing the built-in view). */
export type MessageRenderer = (message: AgentMessage, context: MessageRenderContext) => Renderable;

/**
 * Custom renderers, per element instance (set the `renderers` property): by tool name and by
 * message role (`custom` messages are also looked up as `custom:<customType>` first).
 * @example
 * chat.renderers = { tools: { bash: ({ call }) => html`<code>${call.arguments.command}</code>` } };
 */
export interface PiRenderers {
  readonly tools?: Readonly<Record<string, ToolRenderer>>;
  readonly roles?: Readonly<Record<string, MessageRenderer>>;
}

/** The tool state paired with one tool call of an assistant message. */
export interface ToolSlot {
  readonly execution: ToolExecution | undefined;
  readonly result: ToolResultMessage | undefined;
  /** The extension dialog the call waits on, if any. */
  readonly dialog?: PendingDialog | undefined;
}
