import { adoptStyles, type CSSResultOrNative, type ReactiveElement } from "lit";

/**
 * A part of an element that loads on first use, in a chunk of its own, once for every instance
 * (the dialog's panel, the toasts' cards): a page pays for it only when it shows it.
 */
export class LazyPart<Module> {
  readonly #load: () => Promise<Module>;
  #module: Module | undefined;
  #loading: Promise<Module | undefined> | undefined;

  constructor(load: () => Promise<Module>) {
    this.#load = load;
  }

  /** The module once loaded. */
  get module(): Module | undefined {
    return this.#module;
  }

  /**
   * Loads the module (once) and gives it, or `undefined` when its chunk failed to load (offline):
   * the next call tries again, so a caller re-renders only on success, never in a loop.
   */
  load(): Promise<Module | undefined> {
    this.#loading ??= this.#load().then(
      (module) => {
        this.#module = module;
        return module;
      },
      () => {
        this.#loading = undefined;
        return undefined;
      },
    );
    return this.#loading;
  }

  /**
   * Loads the module for `host` when `needed` and it is not there (`schedule` normally loaded it
   * before; its chunk may have failed), then asks `host` to update once it is.
   */
  reload(needed: boolean, host: { requestUpdate(): void }): void {
    if (needed && this.#module === undefined)
      void this.load().then((module) => module && host.requestUpdate());
  }

  /**
   * Runs an element's `update` now, or once the module has loaded when `needed` says the update
   * shows it: called from `scheduleUpdate()`, so that render has it and `updateComplete` waits.
   */
  schedule(needed: () => boolean, update: () => unknown): Promise<unknown> | undefined {
    if (this.#module === undefined && needed()) return this.load().then(() => update());
    const result = update();
    return result instanceof Promise ? result : undefined;
  }
}

const adopted = new WeakMap<ReactiveElement, CSSResultOrNative[]>();

/** Adds a lazy part's styles to an element's shadow root, after its own and any added before. */
export function adoptPartStyles(host: ReactiveElement, styles: readonly CSSResultOrNative[]): void {
  const extra = adopted.get(host) ?? [];
  const missing = styles.filter((style) => !extra.includes(style));
  if (missing.length === 0 || !(host.renderRoot instanceof ShadowRoot)) return;
  extra.push(...missing);
  adopted.set(host, extra);
  const own = (host.constructor as typeof ReactiveElement).elementStyles;
  adoptStyles(host.renderRoot, [...own, ...extra]);
}
