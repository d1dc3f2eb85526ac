import type { ReactiveController, ReactiveControllerHost } from "lit";
import { builtInStrings } from "../i18n/built-in-strings.ts";
import { type PiStrings, resolveLang } from "../i18n/i18n.ts";

/** An element whose language follows its `lang` (or an ancestor's) and which takes string overrides. */
export interface LocaleHost<Own extends object = object>
  extends ReactiveControllerHost,
    HTMLElement {
  strings?: Partial<PiStrings & Own> | undefined;
}

const OBSERVED: MutationObserverInit = {
  attributes: true,
  attributeFilter: ["lang"],
  subtree: true,
};
const hosts = new Set<LocaleController>();
let observer: MutationObserver | undefined;

// One observer for the whole page: a `lang` change anywhere (the document, a container, a shadow
// root that holds pi elements) re-resolves every connected element, which updates only if its
// language actually changed.
function watch(host: HTMLElement): void {
  observer ??= new MutationObserver(() => {
    for (const controller of hosts) controller.check();
  });
  observer.observe(document.documentElement, OBSERVED);
  // Observing a node twice only replaces its options, so re-observing on each connect is free.
  for (let root = host.getRootNode(); root instanceof ShadowRoot; root = root.host.getRootNode())
    observer.observe(root, OBSERVED);
}

/**
 * The strings of an element in its current language: its own `lang`, else the nearest ancestor's
 * across shadow roots, with its `strings` overrides on top. Switching `lang` anywhere above the
 * element re-renders it at once, with no reload and no wiring; a language whose table is not
 * loaded yet is rendered once it is (see {@link LocaleController.schedule}). An element with a
 * table of its own (`own`, by language) gets it merged under its overrides.
 */
export class LocaleController<Own extends object = object> implements ReactiveController {
  readonly #host: LocaleHost<Own>;
  readonly #own: ((lang: string) => Own | undefined) | undefined;
  #lang = "";
  #overrides: Partial<PiStrings & Own> | undefined;
  #strings!: PiStrings & Own;
  /** Settles when the table of the language in effect has loaded, while it has not. */
  #ready: Promise<void> | undefined;

  constructor(host: LocaleHost<Own>, own?: (lang: string) => Own | undefined) {
    this.#host = host;
    this.#own = own;
    host.addController(this);
  }

  /** The language tag in effect. */
  get lang(): string {
    this.#resolve();
    return this.#lang;
  }

  /** The strings in effect. */
  get strings(): PiStrings & Own {
    this.#resolve();
    return this.#strings;
  }

  /**
   * Runs the host's `update` now, or once the table of its language has loaded: a host calls it
   * from `scheduleUpdate()`, so its first render in a language that loads is already in it (no
   * flash of English) and `updateComplete` waits for it.
   */
  schedule(update: () => unknown): Promise<unknown> | undefined {
    this.#resolve();
    const ready = this.#ready;
    if (ready !== undefined) return ready.then(update);
    const result = update();
    return result instanceof Promise ? result : undefined;
  }

  /** Asks the host to update when its language changed. */
  check(): void {
    if (resolveLang(this.#host) !== this.#lang) this.#host.requestUpdate();
  }

  hostConnected(): void {
    hosts.add(this);
    watch(this.#host);
    this.check();
  }

  hostDisconnected(): void {
    hosts.delete(this);
  }

  #resolve(): void {
    const lang = resolveLang(this.#host);
    const overrides = this.#host.strings;
    if (lang === this.#lang && overrides === this.#overrides) return;
    this.#lang = lang;
    this.#overrides = overrides;
    const { strings, ready } = builtInStrings(lang);
    const own = this.#own?.(lang);
    this.#strings = { ...strings, ...own, ...overrides } as PiStrings & Own;
    this.#ready = ready;
    // Once a table that was loading arrives, the next read picks it up.
    void ready?.then(() => {
      if (this.#lang !== lang) return;
      this.#lang = "";
      this.#ready = undefined;
      this.#host.requestUpdate();
    });
  }
}
