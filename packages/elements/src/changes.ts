/**
 * @module
 * Registers `<pi-changes>` (a side-effect import), the changes panel that `@pi-kit/elements/define`
 * leaves out so a page loads it only when it shows it: `await import("@pi-kit/elements/changes")`.
 * A tag already defined is left alone; where there is no registry (Node without Lit's shim) it
 * registers nothing. (`@pi-kit/elements` exports their types only, so its importers pay nothing.)
 *
 * @example
 * ```ts
 * await import("@pi-kit/elements/changes");
 * const panel = document.createElement("pi-changes");
 * panel.changes = workspaceChanges; // any WorkspaceChanges
 * panel.client = client; // reloads when a run ends
 * ```
 */
import { PiChanges } from "./components/changes/pi-changes.ts";

export { PiChanges } from "./components/changes/pi-changes.ts";
export { PiRevertFileEvent } from "./events/pi-revert-file.ts";
export { PiUndoTurnEvent } from "./events/pi-undo-turn.ts";
export type { PiChangesStrings } from "./internal/i18n/changes-strings.ts";

const registry: CustomElementRegistry | undefined = globalThis.customElements;
if (registry !== undefined && registry.get("pi-changes") === undefined)
  registry.define("pi-changes", PiChanges);
