/**
 * How a host that spawns pi itself loads pi-kit's permission extension: the `-e` arguments and
 * the environment that configure it.
 * @module
 */
import type { PermissionMode } from "./permission-mode.ts";

/** Options of {@link permissionModes}. */
export interface PermissionModesOptions {
  /** The mode a new session starts in; `ask` by default (or the strictest of `allowed`). */
  readonly mode?: PermissionMode;
  /** The modes a user may choose (the operator's limit); all by default. */
  readonly allowed?: readonly PermissionMode[];
  /** How long a question waits before it denies the call; 5 minutes by default. */
  readonly timeoutMs?: number;
}

/** Arguments and environment to add to pi's, so it loads the permission extension. */
export interface ExtensionLaunch {
  /** `["-e", path]`: append to pi's arguments. */
  readonly args: readonly string[];
  /** Variables that configure the extension: merge into pi's environment. */
  readonly env: Readonly<Record<string, string>>;
}

/** The extension's file: its TypeScript source when pi-kit runs from source, else the built one. */
export function permissionExtensionPath(): string {
  const ext = import.meta.url.endsWith(".ts") ? "ts" : "js";
  const path = decodeURIComponent(
    new URL(`./permission-extension.${ext}`, import.meta.url).pathname,
  );
  // A Windows file URL's path starts with "/C:/".
  return /^\/[A-Za-z]:\//.test(path) ? path.slice(1) : path;
}

/**
 * What loads pi-kit's permission extension into a pi the host spawns.
 *
 * @example
 * ```ts
 * const permissions = permissionModes({ mode: "auto-edits" });
 * const transport = await spawnPi({
 *   args: ["--mode", "rpc", ...permissions.args],
 *   env: permissions.env,
 * });
 * ```
 */
export function permissionModes(options: PermissionModesOptions = {}): ExtensionLaunch {
  const env: Record<string, string> = {};
  if (options.mode !== undefined) env.PI_KIT_PERMISSION_MODE = options.mode;
  if (options.allowed !== undefined) env.PI_KIT_PERMISSION_MODES = options.allowed.join(",");
  if (options.timeoutMs !== undefined) env.PI_KIT_PERMISSION_TIMEOUT_MS = String(options.timeoutMs);
  return { args: ["-e", permissionExtensionPath()], env };
}
