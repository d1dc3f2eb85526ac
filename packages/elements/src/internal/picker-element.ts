import type { PiClient, SessionModel } from "@pi-kit/client";
import { LitElement, type PropertyDeclarations } from "lit";
import { LocaleController } from "./controllers/locale-controller.ts";
import type { PiStrings } from "./i18n/i18n.ts";
import { moveIndex, Typeahead } from "./list-navigation.ts";

/**
 * The base of every picker and menu (model, thinking level, fork, slash commands, sessions): the
 * properties a `<pi-provider>` sets, the strings of the element's language, and the keys that move
 * through a list of options, so each element keeps only what it picks and how. An element with a
 * string table of its own (`Own`) returns it from `ownStrings`.
 */
export class PickerElement<Own extends object = object> extends LitElement {
  static override properties: PropertyDeclarations = {
    client: { attribute: false },
    session: { attribute: false },
    strings: { attribute: false },
    theme: { type: String, reflect: true },
  };

  /** The client to ask and act through. */
  declare client: PiClient | undefined;
  /** A session model to read from when there is no client; accepted so the element fits a provider. */
  declare session: SessionModel | undefined;
  /** Overrides for the built-in strings of the resolved language. */
  declare strings: Partial<PiStrings & Own> | undefined;
  /** `light`, `dark`, or `auto` / unset to follow `prefers-color-scheme`. */
  declare theme: "light" | "dark" | "auto" | undefined;

  /**
   * The strings and language in effect.
   * @internal
   */
  protected readonly locale = new LocaleController<Own>(this, (lang) => this.ownStrings(lang));

  /**
   * The element's own string table for `lang`, merged under its overrides; none by default.
   * @internal
   */
  protected ownStrings(_lang: string): Own | undefined {
    return undefined;
  }

  /** The first render in a language whose table still loads waits for it (no flash of English). */
  protected override scheduleUpdate(): Promise<unknown> | undefined {
    return this.locale.schedule(() => super.scheduleUpdate());
  }
  readonly #typeahead = new Typeahead();

  /**
   * The option a key moves to from `current` among `count` (see {@link moveIndex}), or, given the
   * options' `labels`, the one typed (see {@link Typeahead}); `undefined` when the key does not
   * move. A key that moves has its default prevented.
   * @internal
   */
  protected navigate(
    event: KeyboardEvent,
    current: number,
    count: number,
    options: { readonly labels?: readonly string[]; readonly wrap?: boolean } = {},
  ): number | undefined {
    const next =
      moveIndex(event.key, current, count, options.wrap) ??
      (options.labels && this.#typeahead.match(event, options.labels, current));
    if (next !== undefined) event.preventDefault();
    return next;
  }

  /**
   * Scrolls the option with this id into view once the element has rendered.
   * @internal
   */
  protected reveal(id: string): void {
    void this.updateComplete.then(() =>
      this.renderRoot.querySelector(`#${id}`)?.scrollIntoView({ block: "nearest" }),
    );
  }
}
