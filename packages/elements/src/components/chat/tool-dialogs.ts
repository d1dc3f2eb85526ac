import type { PendingDialog, SessionSnapshot, ToolExecution } from "@pi-kit/client";

/** Where the open dialogs show: in their tool calls' cards (by call id), or above the composer. */
export interface DialogPlaces {
  readonly inCards: ReadonlyMap<string, PendingDialog> | undefined;
  readonly above: readonly PendingDialog[];
}

/**
 * Where `snapshot`'s dialogs show: a dialog a tool waits on in its card, others above the composer
 * (with the transcript inert under them: pi waits for the answer). Without `cards` (a watcher's
 * chat, or one without its dialog) every dialog is above.
 */
export function dialogPlaces(snapshot: SessionSnapshot | undefined, cards: boolean): DialogPlaces {
  const inCards = cards
    ? dialogOwners(snapshot?.dialogs ?? [], snapshot?.toolExecutions ?? new Map())
    : undefined;
  return { inCards, above: dialogsAbove(snapshot?.dialogs, inCards) };
}

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

/** The open dialogs that belong to no tool call: the chat shows them above the composer. */
function dialogsAbove(
  dialogs: readonly PendingDialog[] | undefined,
  owners: ReadonlyMap<string, PendingDialog> | undefined,
): readonly PendingDialog[] {
  const owned = [...(owners?.values() ?? [])];
  return (dialogs ?? []).filter((d) => !owned.includes(d));
}

// Every string in a call's arguments (edits are arrays of objects).
function stringsOf(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (value === null || typeof value !== "object") return [];
  return Object.values(value).flatMap(stringsOf);
}

/**
 * True when the lines of a question after its first only repeat the call its card shows (the
 * command, the diff's lines, the content): the card then asks the first line only, and the
 * command is on screen once. An extension's own details are kept.
 */
export function repeatsCall(title: string, args: unknown): boolean {
  const details = title
    .split("\n")
    .slice(1)
    .map((line) => line.replace(/^[-+] /, ""))
    .filter((line) => line.trim() !== "" && line !== "…");
  if (details.length === 0) return false;
  const shown = stringsOf(args).join("\n");
  return details.every((line) => shown.includes(line));
}
