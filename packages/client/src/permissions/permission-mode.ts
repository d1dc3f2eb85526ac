/**
 * The names pi-kit's permission extension and its hosts share (web-safe: no Node modules).
 * @module
 */

/** How much pi may do without asking: every edit, write and bash asks; only bash asks; nothing asks. */
export type PermissionMode = "ask" | "auto-edits" | "full";

/** The permission modes, strictest first. */
export const PERMISSION_MODES: readonly PermissionMode[] = ["ask", "auto-edits", "full"];

/** The extension status key under which the permission extension publishes the session's mode. */
export const PERMISSION_STATUS_KEY = "pi-kit-permissions";

/** Whether `value` names a permission mode. */
export function isPermissionMode(value: unknown): value is PermissionMode {
  return typeof value === "string" && (PERMISSION_MODES as readonly string[]).includes(value);
}

/** The prompt that sets the session's mode (an extension command: pi runs it at once, even mid-run). */
export function permissionModeCommand(mode: PermissionMode): string {
  return `/permissions ${mode}`;
}
