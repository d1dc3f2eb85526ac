/**
 * Path of the bundled `ui-probe` pi extension, for `-e`.
 * @module
 */

import { fileURLToPath } from "node:url";

/**
 * Absolute path of `extensions/ui-probe.ts`: `/ui <mode>` dialogs whose results come back as
 * `notify("result: …")`, and a `tool_call` hook that confirms bash commands containing `CONFIRM`.
 */
// Two levels up from both src/launcher and dist/launcher is the package root.
export const uiProbeExtensionPath: string = fileURLToPath(
  new URL("../../extensions/ui-probe.ts", import.meta.url),
);
