/**
 * The extension UI state pi set and never sends again: statuses, widgets and the title (pi's
 * fire-and-forget `extension_ui_request` methods). A client that joins later (a reload, a
 * watcher) would not know them, for example the permission mode pi-kit's extension publishes as
 * a status, so the bridge keeps the latest record per key and replays them on attach.
 */

/** The latest status, widget and title records of one session. */
export class RetainedUi {
  /** Latest record per `method:key`, in the order they were first set. */
  readonly #records = new Map<string, string>();

  /**
   * Reads an `extension_ui_request` pi wrote (its `line`, and the `request` parsed from it); keeps
   * the line when it sets retained state.
   */
  observe(line: string, request: Readonly<Record<string, unknown>>): void {
    const { method, statusKey, statusText, widgetKey, widgetLines } = request;
    // A clear arrives as a missing text (JSON drops undefined): forget the key.
    if (method === "setStatus" && typeof statusKey === "string")
      this.#keep(`status:${statusKey}`, statusText === undefined ? undefined : line);
    else if (method === "setWidget" && typeof widgetKey === "string")
      this.#keep(`widget:${widgetKey}`, widgetLines === undefined ? undefined : line);
    else if (method === "setTitle") this.#keep("title", line);
  }

  /** The records to send a joining connection. */
  replay(): string[] {
    return [...this.#records.values()];
  }

  #keep(key: string, line: string | undefined): void {
    if (line === undefined) this.#records.delete(key);
    else this.#records.set(key, line);
  }
}
