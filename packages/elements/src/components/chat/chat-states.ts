import type { PiStrings } from "../../internal/i18n/i18n.ts";

/** Whether `<pi-chat>` follows a run, shows no message, or watches another viewer in control. */
export interface ChatState {
  /** A run goes on that the chat follows (with its socket down nothing can be stopped). */
  readonly running: boolean;
  /** There are no messages (none waiting to be sent either). */
  readonly empty: boolean;
  /** Another viewer of the bridge session is in control. */
  readonly watching: boolean;
}

/**
 * The custom states `<pi-chat>` offers the page's styles (`:state(running)`, `:state(empty)`,
 * `:state(watching)`), and the polite announcement when pi starts and stops responding.
 */
export class ChatStates {
  readonly #states: CustomStateSet;
  #responding = false;
  /** "Responding…" once pi started a run, "Done" once it stopped (the chat's live region). */
  announcement = "";

  /** The states of the element whose internals these are. */
  constructor(internals: ElementInternals) {
    this.#states = internals.states;
  }

  /** True while the chat shows no message. */
  get empty(): boolean {
    return this.#states.has("empty");
  }

  /** Sets the states; `responding` says whether pi runs, announced when it changes. */
  set(state: ChatState, responding: boolean, s: PiStrings): void {
    if (responding !== this.#responding) {
      this.announcement = responding ? s.responding : s.done;
      this.#responding = responding;
    }
    for (const [name, on] of Object.entries(state))
      if (on) this.#states.add(name);
      else this.#states.delete(name);
  }
}
