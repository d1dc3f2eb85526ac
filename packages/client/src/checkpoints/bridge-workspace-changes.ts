/**
 * The {@link WorkspaceChanges} of one bridge session, over the bridge's changes API with `fetch`:
 * it runs in browsers, Node, Deno and Bun. Every call takes an `AbortSignal` and rejects with a
 * {@link SessionHistoryError} (the history API's error: the same statuses, the same codes).
 */
import type { ChangeSet, CheckpointSummary, FileChange, FileDiff } from "@pi-kit/protocol/bridge";
import { badResponse } from "../history/bridge-json-call.ts";
import { SessionApi } from "../history/session-api.ts";
import type { BridgeToken } from "../transports/websocket/protocols.ts";
import type { WorkspaceChanges, WorkspaceChangesCallOptions } from "./workspace-changes.ts";

/** Options of {@link BridgeWorkspaceChanges}. */
export interface BridgeWorkspaceChangesOptions {
  /** Where the bridge is: its base URL, or where an app mounts it (`/pi` in a page of the same origin). */
  readonly baseUrl: string | URL;
  /** The session whose workspace this reads. */
  readonly session: string;
  /** The bridge's token or a per-user ticket (or a function returning a fresh one for each call). */
  readonly token?: BridgeToken;
  /** The `fetch` to use. Default: the global one. */
  readonly fetch?: typeof fetch;
  /**
   * The id of this page's socket on the session (`bridge_control`'s `you.id`), sent with reverts
   * and restores: the bridge lets only the controlling socket undo. Undefined: not connected.
   */
  readonly connectionId?: () => number | undefined;
}

/**
 * A bridge session's checkpoints and the changes since them.
 * @example
 * const changes = new BridgeWorkspaceChanges({
 *   baseUrl: "http://127.0.0.1:8787", session: "alpha", token,
 *   connectionId: () => control?.you.id,
 * });
 * const { changes: files } = await changes.changes();
 * await changes.revertFile(files[0].path);
 */
export class BridgeWorkspaceChanges implements WorkspaceChanges {
  readonly #api: SessionApi;

  constructor(options: BridgeWorkspaceChangesOptions) {
    this.#api = new SessionApi(options, "");
  }

  /** The checkpoints, oldest first: the session start, then one at the start of every run. */
  async checkpoints(options: WorkspaceChangesCallOptions = {}): Promise<CheckpointSummary[]> {
    const body = await this.#api.call("GET", "/checkpoints", {}, options.signal);
    const list = (body as { checkpoints?: unknown } | undefined)?.checkpoints;
    if (!Array.isArray(list) || !list.every(isCheckpoint)) throw badResponse("checkpoints");
    return list;
  }

  /** The files changed since checkpoint `since` (default: the session start). */
  async changes(since?: string, options: WorkspaceChangesCallOptions = {}): Promise<ChangeSet> {
    const query = since === undefined ? "" : `?${new URLSearchParams({ since })}`;
    return changeSetOf(await this.#api.call("GET", `/changes${query}`, {}, options.signal));
  }

  /** The unified diff of one file since checkpoint `since` (default: the session start). */
  async diff(
    path: string,
    since?: string,
    options: WorkspaceChangesCallOptions = {},
  ): Promise<FileDiff> {
    const params = new URLSearchParams({ path });
    if (since !== undefined) params.set("since", since);
    const body = await this.#api.call("GET", `/changes/diff?${params}`, {}, options.signal);
    const diff = body as Partial<FileDiff> | undefined;
    if (
      typeof diff?.path !== "string" ||
      typeof diff.since !== "string" ||
      typeof diff.diff !== "string"
    )
      throw badResponse("diff");
    return { path: diff.path, since: diff.since, diff: diff.diff };
  }

  /** Puts one file back as it was at `since` (default: the session start); the controller only. */
  async revertFile(
    path: string,
    since?: string,
    options: WorkspaceChangesCallOptions = {},
  ): Promise<ChangeSet> {
    const body = since === undefined ? { path } : { path, since };
    return changeSetOf(
      await this.#api.call("POST", "/changes/revert", { body }, options.signal, true),
    );
  }

  /** Restores the whole workspace to checkpoint `id`; the controller only. */
  async restore(id: string, options: WorkspaceChangesCallOptions = {}): Promise<ChangeSet> {
    const path = `/checkpoints/${encodeURIComponent(id)}/restore`;
    return changeSetOf(await this.#api.call("POST", path, {}, options.signal, true));
  }
}

/** The body as a {@link ChangeSet}, checked. */
function changeSetOf(body: unknown): ChangeSet {
  const set = body as Partial<Record<keyof ChangeSet, unknown>> | undefined;
  if (typeof set?.since !== "string") throw badResponse("since");
  if (!Array.isArray(set.changes) || !set.changes.every(isChange)) throw badResponse("changes");
  if (!Array.isArray(set.skipped) || !set.skipped.every((p) => typeof p === "string"))
    throw badResponse("skipped");
  return { since: set.since, changes: set.changes, skipped: set.skipped };
}

function isCheckpoint(value: unknown): value is CheckpointSummary {
  if (typeof value !== "object" || value === null) return false;
  const c = value as Record<string, unknown>;
  return typeof c.id === "string" && typeof c.label === "string" && typeof c.createdAt === "number";
}

function isChange(value: unknown): value is FileChange {
  if (typeof value !== "object" || value === null) return false;
  const c = value as Record<string, unknown>;
  return (
    typeof c.path === "string" &&
    (c.oldPath === undefined || typeof c.oldPath === "string") &&
    (c.status === "added" ||
      c.status === "modified" ||
      c.status === "deleted" ||
      c.status === "renamed") &&
    typeof c.additions === "number" &&
    typeof c.deletions === "number" &&
    typeof c.binary === "boolean"
  );
}
