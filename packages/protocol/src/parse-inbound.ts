/**
 * Classifies one record read from pi's stdout. Runs on every record, so the shape checks are
 * deliberately shallow: just enough that a consumer switching on the result cannot crash on the
 * fields it is sure to touch. It never throws.
 */
import { isCommandType, isEventType, isUiMethod } from "./catalog.ts";
import { ProtocolError, ProtocolErrorCode } from "./errors/protocol-error.ts";
import type { RpcEvent } from "./types/events.ts";
import type { ExtensionUiRequest } from "./types/extension-ui.ts";
import type { RpcResponse } from "./types/responses.ts";
import type { UnknownRecord } from "./types/unknown.ts";

/** What a record from pi turned out to be. */
export type InboundMessage =
  | { readonly kind: "response"; readonly response: RpcResponse }
  | { readonly kind: "event"; readonly event: RpcEvent }
  | { readonly kind: "ui_request"; readonly request: ExtensionUiRequest }
  /** An object with a string `type` this package does not know (a newer pi): passed through. */
  | { readonly kind: "unknown"; readonly value: UnknownRecord }
  /** Not JSON, not a typed object, or a known type with a broken shape; the error carries `raw`. */
  | { readonly kind: "error"; readonly error: ProtocolError };

/** The `kind` of an {@link InboundMessage}. */
export type InboundKind = InboundMessage["kind"];

/**
 * Parses and classifies one record (one line, without its LF). Never throws: bad input comes
 * back as `kind: "error"` with code `invalid_json`, `not_an_object` or `invalid_shape`.
 * Unknown event types, unknown UI methods and success responses to unknown commands come back as
 * `kind: "unknown"`, never dropped.
 */
export function parseInbound(record: string): InboundMessage {
  if (typeof record !== "string") {
    return fail(ProtocolErrorCode.NotAnObject, "Record is not a string", safeString(record));
  }
  let value: unknown;
  try {
    value = JSON.parse(record);
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    return fail(
      ProtocolErrorCode.InvalidJson,
      `Record is not valid JSON: ${reason}`,
      record,
      cause,
    );
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return fail(ProtocolErrorCode.NotAnObject, "Record is not a JSON object", record);
  }
  const obj = value as UnknownRecord;
  const type = obj.type;
  if (typeof type !== "string") {
    return fail(ProtocolErrorCode.NotAnObject, "Record has no string `type`", record);
  }
  switch (type) {
    case "response":
      return classifyResponse(obj, record);
    case "extension_ui_request":
      return classifyUiRequest(obj, record);
    default: {
      if (!isEventType(type)) return { kind: "unknown", value: obj };
      const field = brokenEventField(type, obj);
      if (field !== undefined) return broken(type, field, record);
      return { kind: "event", event: obj as unknown as RpcEvent };
    }
  }
}

function classifyResponse(obj: UnknownRecord, record: string): InboundMessage {
  const { id, success, command } = obj;
  if (id !== undefined && typeof id !== "string" && typeof id !== "number") {
    return broken("response", "id", record);
  }
  if (success === false) {
    if (typeof obj.error !== "string") return broken("response", "error", record);
    if (command !== undefined && typeof command !== "string") {
      return broken("response", "command", record);
    }
    return { kind: "response", response: obj as unknown as RpcResponse };
  }
  if (success !== true) return broken("response", "success", record);
  if (typeof command !== "string") return broken("response", "command", record);
  if (!isCommandType(command)) return { kind: "unknown", value: obj };
  return { kind: "response", response: obj as unknown as RpcResponse };
}

function classifyUiRequest(obj: UnknownRecord, record: string): InboundMessage {
  const { id, method } = obj;
  if (typeof id !== "string") return broken("extension_ui_request", "id", record);
  if (typeof method !== "string") return broken("extension_ui_request", "method", record);
  if (!isUiMethod(method)) return { kind: "unknown", value: obj };
  // Only the fields a renderer iterates over; strings are left to the consumer.
  if (method === "select" && !Array.isArray(obj.options)) {
    return broken("extension_ui_request", "options", record);
  }
  if (method === "setWidget" && obj.widgetLines !== undefined && !Array.isArray(obj.widgetLines)) {
    return broken("extension_ui_request", "widgetLines", record);
  }
  return { kind: "ui_request", request: obj as unknown as ExtensionUiRequest };
}

/** The first field of a known event that a consumer would dereference and that is missing. */
function brokenEventField(type: string, obj: UnknownRecord): string | undefined {
  switch (type) {
    case "message_start":
    case "message_end":
    case "turn_end":
      return isObject(obj.message) ? undefined : "message";
    case "message_update":
      return isObject(obj.assistantMessageEvent) ? undefined : "assistantMessageEvent";
    case "agent_end":
      return Array.isArray(obj.messages) ? undefined : "messages";
    case "tool_execution_start":
    case "tool_execution_update":
    case "tool_execution_end":
      return typeof obj.toolCallId === "string" ? undefined : "toolCallId";
    case "bash_execution_update":
      return typeof obj.delta === "string" ? undefined : "delta";
    case "queue_update":
      if (!Array.isArray(obj.steering)) return "steering";
      return Array.isArray(obj.followUp) ? undefined : "followUp";
    case "entry_appended":
      return isObject(obj.entry) ? undefined : "entry";
    case "thinking_level_changed":
      return typeof obj.level === "string" ? undefined : "level";
    default:
      return undefined;
  }
}

function isObject(value: unknown): boolean {
  return typeof value === "object" && value !== null;
}

function broken(type: string, field: string, record: string): InboundMessage {
  return fail(
    ProtocolErrorCode.InvalidShape,
    `\`${type}\` record has a missing or mistyped \`${field}\``,
    record,
    undefined,
    {
      type,
      field,
    },
  );
}

function fail(
  code: ProtocolErrorCode,
  message: string,
  raw: string,
  cause?: unknown,
  detail?: Readonly<Record<string, unknown>>,
): InboundMessage {
  const options = {
    raw,
    ...(cause === undefined ? {} : { cause }),
    ...(detail === undefined ? {} : { detail }),
  };
  return { kind: "error", error: new ProtocolError(code, message, options) };
}

function safeString(value: unknown): string {
  try {
    return String(value);
  } catch {
    return "[unprintable value]";
  }
}
