/**
 * pi-kit's permission extension in the pi command every session runs: `-e` and its
 * configuration appended to what the operator gave (see {@link BridgeOptions.permissions}).
 */
import { type PermissionModesOptions, permissionModes } from "@pi-kit/client/process";
import type { PiProcessSpec } from "./session-settings.ts";

/** `pi` with the permission extension loaded (a bridge's default mode is `full`), or as is for `false`. */
export function withPermissions(
  pi: PiProcessSpec,
  permissions: PermissionModesOptions | false | undefined,
): PiProcessSpec {
  if (permissions === false) return pi;
  const launch = permissionModes({ mode: "full", ...permissions });
  return {
    ...pi,
    args: [...(pi.args ?? []), ...launch.args],
    env: { ...pi.env, ...launch.env },
  };
}
