import type { SessionHistory, SessionListQuery, SessionPage, SessionSummary } from "@pi-kit/client";

/** A summary with sensible defaults, `minutesAgo` before now. */
export function summary(
  name: string,
  title: string,
  minutesAgo: number,
  extra: Partial<SessionSummary> = {},
): SessionSummary {
  const at = new Date(Date.now() - minutesAgo * 60_000).toISOString();
  return {
    name,
    title,
    createdAt: at,
    lastActivity: at,
    messageCount: 4,
    state: "stopped",
    sizeBytes: 2048,
    ...extra,
  };
}

/**
 * A `SessionHistory` in memory, for tests and screenshots: newest activity first, cursors are
 * offsets, every call is recorded, and `fail` makes the next call of a kind reject.
 */
export class MemoryHistory implements SessionHistory {
  sessions: SessionSummary[];
  readonly calls: { method: string; args: unknown[] }[] = [];
  readonly fail = new Set<"list" | "create" | "rename" | "delete">();
  /** When set, `list` waits for it before answering (to test requests in flight). */
  gate: Promise<void> | undefined;
  #created = 0;

  constructor(sessions: readonly SessionSummary[] = []) {
    this.sessions = [...sessions];
  }

  async list(query: SessionListQuery = {}): Promise<SessionPage> {
    this.calls.push({ method: "list", args: [{ ...query, signal: undefined }] });
    await this.gate;
    this.#maybeFail("list");
    query.signal?.throwIfAborted();
    // As a bridge does: a conversation enters the history with its first message.
    const listed = this.sessions.filter((s) => s.messageCount > 0 || s.title !== "");
    const sorted = listed.sort((a, b) => b.lastActivity.localeCompare(a.lastActivity));
    const q = query.query?.toLowerCase();
    const matching = q ? sorted.filter((s) => s.title.toLowerCase().includes(q)) : sorted;
    const start = Number(query.cursor ?? 0);
    const end = start + (query.limit ?? 50);
    return {
      sessions: matching.slice(start, end),
      nextCursor: end < matching.length ? String(end) : null,
    };
  }

  async create(name?: string): Promise<SessionSummary> {
    this.calls.push({ method: "create", args: [name] });
    this.#maybeFail("create");
    const created = summary(name ?? `session-${++this.#created}`, "", 0, {
      messageCount: 0,
      state: "idle",
    });
    this.sessions.push(created);
    return created;
  }

  async rename(name: string, title: string): Promise<SessionSummary> {
    this.calls.push({ method: "rename", args: [name, title] });
    this.#maybeFail("rename");
    const index = this.sessions.findIndex((s) => s.name === name);
    const current = this.sessions[index];
    if (current === undefined) throw new Error(`no session ${name}`);
    const renamed = { ...current, title };
    this.sessions[index] = renamed;
    return renamed;
  }

  async delete(name: string): Promise<void> {
    this.calls.push({ method: "delete", args: [name] });
    this.#maybeFail("delete");
    this.sessions = this.sessions.filter((s) => s.name !== name);
  }

  #maybeFail(method: "list" | "create" | "rename" | "delete"): void {
    if (!this.fail.delete(method)) return;
    throw new Error(`${method} failed`);
  }
}
