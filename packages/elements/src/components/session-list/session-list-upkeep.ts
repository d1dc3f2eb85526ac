import type { ReactiveController, ReactiveControllerHost } from "lit";

/** Typing in the filter waits this long for a pause before asking the history. */
export const FILTER_DELAY_MS = 200;

/** The list as its upkeep sees it. */
export interface UpkeepList extends ReactiveControllerHost {
  readonly renderRoot: ParentNode;
  /** Loads the next page, when there is one. */
  loadMore(): Promise<void>;
}

/**
 * What `<pi-session-list>` does without being asked: a search runs once the filter has been still
 * for {@link FILTER_DELAY_MS}, and the "show more" button loads the next page by itself once it
 * scrolls into view. Both stop while the list is out of the page.
 */
export class SessionListUpkeep implements ReactiveController {
  readonly #list: UpkeepList;
  readonly #search: () => void;
  #filterTimer: ReturnType<typeof setTimeout> | undefined;
  #moreObserver: IntersectionObserver | undefined;

  /** `search` loads the list anew for the filter's text. */
  constructor(list: UpkeepList, search: () => void) {
    this.#list = list;
    this.#search = search;
    list.addController(this);
  }

  /** The filter's text changed: searches once typing pauses. */
  filtered(): void {
    clearTimeout(this.#filterTimer);
    this.#filterTimer = setTimeout(this.#search, FILTER_DELAY_MS);
  }

  hostUpdated(): void {
    const root = this.#list.renderRoot;
    const button = root.querySelector("[part=more-button]");
    if (button === null) {
      this.#moreObserver?.disconnect();
      return;
    }
    this.#moreObserver ??= new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) void this.#list.loadMore();
      },
      { root: root.querySelector(".scroller"), rootMargin: "200px" },
    );
    this.#moreObserver.disconnect();
    this.#moreObserver.observe(button);
  }

  hostDisconnected(): void {
    clearTimeout(this.#filterTimer);
    this.#moreObserver?.disconnect();
    this.#moreObserver = undefined;
  }
}
