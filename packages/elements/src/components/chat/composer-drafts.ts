import type { PiClient } from "@pi-kit/client";
import type { ReactiveControllerHost } from "lit";
import { ClientWatcher } from "../../internal/controllers/client-watcher.ts";
import type { PiComposer } from "./pi-composer.ts";

/**
 * The composer's draft belongs to the session file it was typed for. When pi moves to another
 * file (a fork, a switch to another version, a new session) or the chat to another conversation,
 * the draft stays with the file it was typed for, and the composer shows the draft of the file now
 * shown (none: empty). The message a fork puts back in the composer comes after the move (the
 * client says `session_changed` before `fork` resolves), so it is the fork's draft, and switching
 * to the original does not carry it along. Kept in memory, for the page's lifetime. The text pi
 * puts in the editor (an extension's `set_editor_text`) replaces the composer's when it changes.
 */
export class ComposerDrafts extends ClientWatcher {
  readonly #composer: () => PiComposer | null;
  readonly #drafts = new Map<string, string>();
  /** The file the composer's text is for; `undefined` until known. */
  #file: string | undefined;
  #editorText: string | undefined;

  /** Drafts of the composer `composer` gives, in `host`, the chat. */
  constructor(host: ReactiveControllerHost & HTMLElement, composer: () => PiComposer | null) {
    super(host);
    this.#composer = composer;
    // A fork picker or session tree inside the chat hands the forked message to the composer.
    host.addEventListener("pi-forked", (event) => {
      if (event.cancelled || event.text === "") return;
      composer()?.setText(event.text);
      composer()?.focus();
    });
  }

  /** Follows `client`, now showing session file `file` (as far as known). */
  override watch(client: PiClient | undefined, file?: string): void {
    // Another conversation: what was typed stays with the one left.
    if (client !== this.client) this.#moveTo(undefined);
    super.watch(client);
    if (this.#file === undefined && file !== undefined) this.#moveTo(fileName(file));
  }

  /** Puts pi's editor text in the composer (and the focus there) when it changes. */
  follow(editorText: string | undefined): void {
    if (editorText === this.#editorText) return;
    this.#editorText = editorText;
    if (editorText === undefined) return;
    const composer = this.#composer();
    composer?.setText(editorText);
    composer?.focus();
  }

  // Drafts stay with the client while the chat is out of the page: one moved elsewhere in the
  // page keeps its composer as it was.
  override hostDisconnected(): void {}

  protected subscribe(client: PiClient): () => void {
    return client.on("session_changed", (event) => this.#moveTo(fileName(event.sessionFile)));
  }

  #moveTo(file: string | undefined): void {
    if (file === this.#file) return;
    const composer = this.#composer();
    if (composer === null) {
      // Not rendered yet: nothing typed to keep.
      this.#file = file;
      return;
    }
    if (this.#file !== undefined) {
      const text = composer.value;
      if (text.trim() === "") this.#drafts.delete(this.#file);
      else this.#drafts.set(this.#file, text);
      composer.setText(file === undefined ? "" : (this.#drafts.get(file) ?? ""));
    } else if (file !== undefined && composer.value === "") {
      // First known file of this conversation: what was typed before stays; else its draft.
      composer.setText(this.#drafts.get(file) ?? "");
    }
    this.#file = file;
  }
}

/**
 * A session file's name without its directory: the key of its draft. pi names a file with a
 * time and an id, so names do not repeat, while the path pi reports for one file can (a switch
 * to a file named relative to the sessions directory, a path through a link).
 */
function fileName(path: string | undefined): string | undefined {
  return path?.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1);
}
