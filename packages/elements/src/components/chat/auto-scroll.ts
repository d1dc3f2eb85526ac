import type { ReactiveController, ReactiveControllerHost } from "lit";

/** How close to the bottom (px) counts as "at the bottom". */
const NEAR_BOTTOM_PX = 64;

type Host = ReactiveControllerHost & { readonly renderRoot: ParentNode };

/**
 * Keeps the transcript at the bottom while the reader is there: it unpins as soon as the reader
 * scrolls up, re-pins when they come back near the bottom (or on send), and follows content
 * growth (streaming, images, collapsibles) through a ResizeObserver rather than per render.
 */
export class AutoScroll implements ReactiveController {
  readonly #host: Host;
  readonly #changed: (pinned: boolean) => void;
  #scroller: HTMLElement | null = null;
  #observer: ResizeObserver | undefined;
  #pinned = true;
  #lastTop = 0;

  constructor(host: Host, changed: (pinned: boolean) => void) {
    this.#host = host;
    this.#changed = changed;
    host.addController(this);
  }

  /** True while the view sticks to the bottom. */
  get pinned(): boolean {
    return this.#pinned;
  }

  hostDisconnected(): void {
    this.#observer?.disconnect();
    this.#scroller?.removeEventListener("scroll", this.#onScroll);
    this.#scroller = null;
  }

  /** Call after each render: attaches on first use and keeps a pinned view at the bottom. */
  afterRender(): void {
    const scroller = this.#host.renderRoot.querySelector<HTMLElement>("[role=log]");
    if (scroller !== this.#scroller) {
      this.hostDisconnected();
      this.#scroller = scroller;
      if (scroller !== null) {
        scroller.addEventListener("scroll", this.#onScroll, { passive: true });
        this.#observer = new ResizeObserver(() => this.#follow());
        for (const child of scroller.children) this.#observer.observe(child);
        this.#observer.observe(scroller);
      }
    }
    this.#follow();
  }

  /** Sticks to the bottom and scrolls there now. */
  pin(): void {
    this.#set(true);
    this.#follow();
  }

  #follow(): void {
    const scroller = this.#scroller;
    if (!this.#pinned || scroller === null) return;
    scroller.scrollTop = scroller.scrollHeight;
    this.#lastTop = scroller.scrollTop;
  }

  readonly #onScroll = (): void => {
    const scroller = this.#scroller;
    if (scroller === null) return;
    const top = scroller.scrollTop;
    const distance = scroller.scrollHeight - top - scroller.clientHeight;
    if (top < this.#lastTop - 1 && distance > 2) this.#set(false);
    else if (distance <= NEAR_BOTTOM_PX) this.#set(true);
    this.#lastTop = top;
  };

  #set(pinned: boolean): void {
    if (pinned === this.#pinned) return;
    this.#pinned = pinned;
    this.#changed(pinned);
  }
}
