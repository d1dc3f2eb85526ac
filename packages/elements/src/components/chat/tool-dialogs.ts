import type { PendingDialog, ToolExecution } from "@pi-kit/client";

/**
 * Which tool call each open dialog belongs to. pi does not say; but an extension's `tool_call`
 * hook asks after `tool_execution_start` and before the tool runs, one call at a time, so a dialog
 * opened during a run belongs to the tool that started last and still runs. Dialogs of extension
 * commands (outside runs) belong to no tool.
 */
export function dialogOwners(
  dialogs: readonly PendingDialog[],
  executions: ReadonlyMap<string, ToolExecution>,
): ReadonlyMap<string, PendingDialog> {
  const bound = dialogs.find((d) => d.runBound);
  if (bound === undefined) return NONE;
  let latest: string | undefined;
  for (const [id, execution] of executions) if (execution.status === "running") latest = id;
  if (latest === undefined) return NONE;
  // The same map while nothing changed, so the views it is handed to need not update.
  const known = owned.get(bound);
  if (known?.get(latest) === bound) return known;
  const owners = new Map([[latest, bound]]);
  owned.set(bound, owners);
  return owners;
}

const NONE: ReadonlyMap<string, PendingDialog> = new Map();
const owned = new WeakMap<PendingDialog, ReadonlyMap<string, PendingDialog>>();
