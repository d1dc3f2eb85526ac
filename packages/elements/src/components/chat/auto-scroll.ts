import { html, nothing, type ReactiveController, type ReactiveControllerHost } from "lit";
import { format } from "../../internal/i18n/format.ts";
import type { PiStrings } from "../../internal/i18n/i18n.ts";
import type { PiMessage } from "./pi-message.ts";

/** How close to the bottom (px) counts as "at the bottom". */
const NEAR_BOTTOM_PX = 64;
/** Where a new user turn lands: this far below the top of the transcript (px). */
const TURN_GAP_PX = 16;
/**
 * How far content may shrink under a held position before the trailing space catches up (px):
 * the browser would clamp the scroll at once (a progress line or a waiting bubble that goes).
 */
const SLACK_PX = 160;

type Host = ReactiveControllerHost & { readonly renderRoot: ParentNode };

/** Following the bottom, reading above it, or holding a new user turn near the top. */
type Mode = "bottom" | "reading" | "turn";

/**
 * Where the transcript scrolls, so that reading is never disturbed. At the bottom the view
 * follows what arrives; once the reader scrolls up nothing on screen moves (a stream grows below
 * them) and a jump button counts the messages that arrived since; a user turn sent from here
 * lands near the top with the answer growing below it. A trailing space keeps the held position
 * reachable whatever the content does: it shrinks as much as content grows below, so the scroll
 * height (and with it everything on screen) stays put. Content growth is followed through a
 * ResizeObserver rather than per render.
 */
export class AutoScroll implements ReactiveController {
  readonly #host: Host;
  readonly #changed: (pinned: boolean) => void;
  #scroller: HTMLElement | null = null;
  #space: HTMLElement | null = null;
  #observer: ResizeObserver | undefined;
  #mode: Mode = "bottom";
  #lastTop = 0;
  // The user turn that was last before a send (not the one to land) and the one that landed.
  #previous: HTMLElement | null = null;
  #turn: HTMLElement | null = null;
  #below = false;
  #elastic = false;
  #count = 0;
  #seen = 0;

  constructor(host: Host, changed: (pinned: boolean) => void) {
    this.#host = host;
    this.#changed = changed;
    host.addController(this);
  }

  /** True while the view sticks to the bottom. */
  get pinned(): boolean {
    return this.#mode === "bottom";
  }

  hostDisconnected(): void {
    this.#observer?.disconnect();
    this.#scroller?.removeEventListener("scroll", this.#onScroll);
    this.#scroller = null;
  }

  /**
   * The number of messages in the transcript now: those that arrive while the reader is away
   * from the bottom are counted on the jump button. Fewer than before (another conversation)
   * goes back to the bottom.
   */
  count(messages: number): void {
    if (messages < this.#count) this.#set("bottom");
    this.#count = messages;
    if (this.#mode === "bottom") this.#seen = messages;
  }

  /** Call after each render: attaches on first use and holds the view where it belongs. */
  afterRender(): void {
    const scroller = this.#host.renderRoot.querySelector<HTMLElement>("[role=log]");
    if (scroller !== this.#scroller) {
      this.hostDisconnected();
      this.#scroller = scroller;
      this.#space = scroller?.querySelector<HTMLElement>(".turn-space") ?? null;
      if (scroller !== null) {
        scroller.addEventListener("scroll", this.#onScroll, { passive: true });
        // Not the trailing space: its own changes are no content change.
        this.#observer = new ResizeObserver(() => this.#layout());
        for (const child of scroller.children)
          if (child !== this.#space) this.#observer.observe(child);
        this.#observer.observe(scroller);
      }
    }
    this.#layout();
  }

  /** Sticks to the bottom and scrolls there now. */
  pin(): void {
    this.#set("bottom");
    this.#layout();
  }

  /** A user turn is on its way: the next one to appear lands near the top of the view. */
  turn(): void {
    this.#previous = this.#lastTurn();
    this.#turn = null;
    this.#set("turn");
    // The user's own message is no news.
    this.#seen = this.#count + 1;
    this.#layout();
  }

  /** "Jump to latest", with the number of messages that arrived, while there is more below. */
  jumpButton(s: PiStrings): unknown {
    if (this.#mode === "bottom" || !this.#below) return nothing;
    const count = this.#count - this.#seen;
    return html`<button part="jump-button" class="jump" @click=${() => this.pin()}>↓ ${
      count > 0 ? format(s.jumpToLatestCount, { count }) : s.jumpToBottom
    }</button>`;
  }

  #layout(): void {
    const scroller = this.#scroller;
    const space = this.#space;
    if (scroller === null || space === null) return;
    const spaceHeight = space.offsetHeight;
    let target = scroller.scrollTop;
    let place = false;
    if (this.#mode === "turn") {
      const turn = this.#lastTurn();
      if (turn !== null && turn !== this.#previous && turn !== this.#turn) {
        this.#turn = turn;
        target = Math.max(0, this.#offsetOf(turn) - TURN_GAP_PX);
        place = true;
      }
    }
    // The space that keeps `target` reachable; at the bottom it only shrinks (as content grows).
    const end = this.#offsetOf(space);
    const padding = Number.parseFloat(getComputedStyle(scroller).paddingBottom) || 0;
    let needed = Math.max(0, Math.ceil(target + scroller.clientHeight + SLACK_PX - padding - end));
    if (this.#mode === "bottom") needed = Math.min(needed, spaceHeight);
    if (needed !== spaceHeight && !this.#elastic) {
      const height = scroller.clientHeight;
      space.style.height = `${needed}px`;
      // A transcript whose height follows its content (no height set on the chat) would grow
      // with the space, again and again: it gets none.
      if (scroller.clientHeight !== height) {
        space.style.height = "0px";
        this.#elastic = true;
      }
    }
    if (this.#mode === "bottom") scroller.scrollTop = scroller.scrollHeight;
    else if (place) scroller.scrollTop = target;
    this.#lastTop = scroller.scrollTop;
    this.#showBelow(scroller);
  }

  // Where `element` starts in the scrolled content (px from its top).
  #offsetOf(element: Element): number {
    const scroller = this.#scroller as HTMLElement;
    return (
      element.getBoundingClientRect().top -
      scroller.getBoundingClientRect().top +
      scroller.scrollTop
    );
  }

  // The user's latest bubble: a message still waiting to be sent, else the last one pi has.
  #lastTurn(): HTMLElement | null {
    const root = this.#host.renderRoot;
    const pending = root.querySelectorAll<HTMLElement>(".pending-message");
    if (pending.length > 0) return pending[pending.length - 1] ?? null;
    const list = root.querySelector("pi-message-list")?.shadowRoot;
    const messages = list?.querySelectorAll<PiMessage>("pi-message") ?? [];
    for (let i = messages.length - 1; i >= 0; i--) {
      const message = messages[i] as PiMessage;
      if (message.message?.role === "user") return message;
    }
    return null;
  }

  readonly #onScroll = (): void => {
    const scroller = this.#scroller;
    if (scroller === null) return;
    const top = scroller.scrollTop;
    // Its own scrolling (or none) is not the reader's.
    if (Math.abs(top - this.#lastTop) <= 1) return;
    const distance = scroller.scrollHeight - top - scroller.clientHeight;
    if (top < this.#lastTop && distance > 2) this.#set("reading");
    else if (top > this.#lastTop && distance <= NEAR_BOTTOM_PX) this.#set("bottom");
    this.#lastTop = top;
    this.#showBelow(scroller);
  };

  // Whether content (not the trailing space) goes on below the view. A turn on its way lands
  // in view (the list renders it a frame after the chat): no button meanwhile.
  #showBelow(scroller: HTMLElement): void {
    const end = this.#space === null ? scroller.scrollHeight : this.#offsetOf(this.#space);
    const landing = this.#mode === "turn" && this.#turn === null;
    const below = !landing && end - scroller.scrollTop - scroller.clientHeight > NEAR_BOTTOM_PX;
    if (below === this.#below) return;
    this.#below = below;
    // Not from inside a ResizeObserver callback: a render there that resizes the transcript
    // (a toast, the button) is a "ResizeObserver loop" error.
    requestAnimationFrame(() => this.#host.requestUpdate());
  }

  #set(mode: Mode): void {
    if (mode === this.#mode) return;
    const wasPinned = this.pinned;
    this.#mode = mode;
    if (mode === "bottom") this.#seen = this.#count;
    if (this.pinned !== wasPinned) this.#changed(this.pinned);
  }
}
