/**
 * The requests sent on one socket that pi has not answered yet. The bridge routes an answer to
 * the socket that asked, so a ticket renewal, which swaps sockets, waits until none is left:
 * swapping earlier would lose the answer and fail the call as one that may or may not have run.
 */
export class UnansweredRequests {
  readonly #ids = new Set<string>();
  #idle: (() => void) | undefined;

  /** How many are waiting. */
  get size(): number {
    return this.#ids.size;
  }

  /** Notes an outgoing record; a command with an `id` waits for its response. */
  sent(record: string): void {
    if (!record.includes('"id"')) return;
    const { type, id } = fields(record);
    // A dialog's answer is itself a reply: nothing answers it.
    if (type !== "extension_ui_response" && id !== undefined) this.#ids.add(id);
  }

  /** Notes an incoming record; only while something waits is a response looked at. */
  received(record: string): void {
    if (this.#ids.size === 0 || !record.includes('"response"')) return;
    const { type, id } = fields(record);
    if (type !== "response" || id === undefined || !this.#ids.delete(id)) return;
    if (this.#ids.size === 0) this.#takeIdle()?.();
  }

  /** Runs `callback` once nothing waits: now, or when the last answer arrives. */
  whenIdle(callback: () => void): void {
    if (this.#ids.size === 0) callback();
    else this.#idle = callback;
  }

  /** Forgets everything: the socket is gone, and with it every answer it was owed. */
  clear(): void {
    this.#ids.clear();
    this.#idle = undefined;
  }

  #takeIdle(): (() => void) | undefined {
    const idle = this.#idle;
    this.#idle = undefined;
    return idle;
  }
}

function fields(record: string): { type?: unknown; id?: string } {
  try {
    const value = JSON.parse(record) as { type?: unknown; id?: unknown } | null;
    const id = value?.id;
    return {
      type: value?.type,
      ...(typeof id === "string" || typeof id === "number" ? { id: String(id) } : {}),
    };
  } catch {
    return {};
  }
}
