import { type CommandId, ProtocolError, ProtocolErrorCode } from "@pi-kit/protocol";

/**
 * A command of a type this package does not know, for raw access to a newer pi: a JSON object
 * with a string `type`, an optional `id`, and any fields that pi command takes.
 */
export interface RawCommand {
  readonly type: string;
  readonly id?: CommandId;
  readonly [field: string]: unknown;
}

/**
 * The little a command of an unknown type must be: a JSON object with a non-empty string `type`
 * and, if present, an `id` that is a string or a finite number. Returns `undefined` when it is.
 */
export function validateRawCommand(value: unknown): ProtocolError | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return invalid("A command must be a JSON object", null);
  }
  const { type, id } = value as Record<string, unknown>;
  if (typeof type !== "string" || type === "")
    return invalid("`type` must be a non-empty string", "type");
  if (
    id !== undefined &&
    typeof id !== "string" &&
    !(typeof id === "number" && Number.isFinite(id))
  ) {
    return invalid(`\`${type}.id\` must be a string or a finite number`, "id");
  }
  return undefined;
}

function invalid(message: string, field: string | null): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidCommand, message, { detail: { field } });
}
