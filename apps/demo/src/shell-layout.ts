/**
 * The shell's layout for the screen it is on: below 720 px the chat list becomes a drawer, below
 * 1100 px the session panel overlays the chat. Follows the media queries, and opens and closes
 * the drawer with the focus where a keyboard user expects it.
 */
import type { ReactiveController, ReactiveControllerHost } from "lit";

const NARROW = matchMedia("(max-width: 719.98px)");
const COMPACT = matchMedia("(max-width: 1099.98px)");

/** A Lit host with a render root to move the focus in. */
type LayoutHost = ReactiveControllerHost & { readonly renderRoot: ParentNode };

/** The layout in force for a Lit host: re-renders it on each change. */
export class ShellLayout implements ReactiveController {
  readonly #host: LayoutHost;
  /** The chat list is a drawer. */
  narrow = NARROW.matches;
  /** The session panel overlays the chat. */
  compact = COMPACT.matches;
  #navOpen = false;
  readonly #changed = (): void => {
    this.narrow = NARROW.matches;
    this.compact = COMPACT.matches;
    if (!this.narrow) this.#navOpen = false;
    this.#host.requestUpdate();
  };

  constructor(host: LayoutHost) {
    this.#host = host;
    host.addController(this);
  }

  /** True while the drawer is open. */
  get navOpen(): boolean {
    return this.#navOpen;
  }

  /** Closes the drawer (a conversation was chosen), leaving the focus where it is. */
  closeNav(): void {
    if (!this.#navOpen) return;
    this.#navOpen = false;
    this.#host.requestUpdate();
  }

  /** Opens or closes the drawer, with the focus on the list or back on the menu button. */
  toggleNav(open: boolean): void {
    this.#navOpen = open;
    this.#host.requestUpdate();
    void this.#host.updateComplete.then(() => {
      const target = open ? "pi-session-list" : ".menu-button";
      this.#host.renderRoot.querySelector<HTMLElement>(target)?.focus();
    });
  }

  hostConnected(): void {
    this.#changed();
    NARROW.addEventListener("change", this.#changed);
    COMPACT.addEventListener("change", this.#changed);
  }

  hostDisconnected(): void {
    NARROW.removeEventListener("change", this.#changed);
    COMPACT.removeEventListener("change", this.#changed);
  }
}
