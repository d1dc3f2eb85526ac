import type { Model, ThinkingLevel } from "@pi-kit/protocol";
import { html } from "lit";
import { PiThinkingChangeEvent } from "../../events/pi-thinking-change.ts";
import { ConnectionController } from "../../internal/controllers/connection-controller.ts";
import { PickerElement } from "../../internal/picker-element.ts";
import { chooseThrough, selectView } from "../../internal/select-choice.ts";
import { thinkingLevelLabel } from "../../internal/thinking-levels.ts";
import { pickerStyles } from "../../styles/picker.ts";
import { baseStyles } from "../../styles/shared.ts";
import { tokenStyles } from "../../styles/tokens.ts";

/** What 0.73.x offers a reasoning model (it has no `get_available_thinking_levels`). */
const REASONING_LEVELS: readonly ThinkingLevel[] = ["off", "minimal", "low", "medium", "high"];

/**
 * The levels a model offers without asking pi: `off` only unless it reasons; `xhigh` / `max` only
 * when its level map names them; levels the map sets to `null` are unsupported.
 */
export function levelsForModel(model: Model | undefined): readonly ThinkingLevel[] {
  if (!model?.reasoning) return ["off"];
  const map = model.thinkingLevelMap ?? {};
  const extra = (["xhigh", "max"] as const).filter((level) => typeof map[level] === "string");
  return [...REASONING_LEVELS, ...extra].filter((level) => level === "off" || map[level] !== null);
}

/**
 * Sets the reasoning effort with `set_thinking_level`, offering only the levels the current model
 * has: from `get_available_thinking_levels` on pi 1.x, from the model's `reasoning` flag and level
 * map on 0.73.x. Disabled when the model cannot think.
 *
 * @tagname pi-thinking-picker
 * @summary Thinking-level picker.
 * @event pi-thinking-change - Before the level is set; cancelable. {@link PiThinkingChangeEvent}
 * @event pi-error - Setting the level failed (`action` is `set-thinking-level`).
 * @csspart label - The visible label.
 * @csspart select - The select.
 */
export class PiThinkingPicker extends PickerElement {
  static override styles = [tokenStyles, baseStyles, pickerStyles];
  static override properties = {
    levels: { attribute: false },
    hideLabel: { type: Boolean, attribute: "hide-label" },
    busy: { state: true },
  };

  /** The levels to offer; derived from the model (and pi 1.x) when unset. */
  declare levels: readonly ThinkingLevel[] | undefined;
  /** Keeps the label for screen readers only. */
  declare hideLabel: boolean;
  declare busy: boolean;

  readonly #connection = new ConnectionController(this, { observe: true });
  /** Levels pi 1.x reported, and for which model. */
  #fetched: { readonly model: string; readonly levels: readonly ThinkingLevel[] } | undefined;
  #fetching: string | undefined;
  #chosen: ThinkingLevel | undefined;

  constructor() {
    super();
    this.hideLabel = false;
    this.busy = false;
  }

  /** The level pi will use: `off` for a model that cannot think, whatever level is set. */
  get value(): ThinkingLevel | undefined {
    const level = this.#chosen ?? this.#connection.snapshot?.state?.thinkingLevel;
    const available = this.available;
    return level !== undefined && available.length === 1 ? available[0] : level;
  }

  /** The levels offered now. */
  get available(): readonly ThinkingLevel[] {
    if (this.levels !== undefined) return this.levels;
    const model = this.#connection.snapshot?.state?.model;
    const key = model ? `${model.provider}/${model.id}` : "";
    if (this.#fetched?.model === key) return this.#fetched.levels;
    return levelsForModel(model);
  }

  /** Sets a level (fires `pi-thinking-change` first). */
  async choose(level: ThinkingLevel): Promise<void> {
    if (!this.dispatchEvent(new PiThinkingChangeEvent(level))) return;
    const client = this.#connection.client;
    this.#chosen = level;
    await chooseThrough(
      this,
      "set-thinking-level",
      client,
      (client) => client.setThinkingLevel(level),
      () => {
        this.#chosen = undefined;
      },
    );
  }

  protected override willUpdate(): void {
    this.#connection.resolve();
    this.#fetchLevels();
  }

  protected override render(): unknown {
    const s = this.locale.strings;
    const current = this.value;
    const levels = this.available;
    const shown = current === undefined || levels.includes(current) ? levels : [...levels, current];
    return selectView(
      this,
      s.thinkingLabel,
      {
        disabled: levels.length <= 1 || this.busy,
        change: (level) => void this.choose(level as ThinkingLevel),
      },
      shown.map(
        (level) =>
          html`<option value=${level} ?selected=${level === current}>${thinkingLevelLabel(level, s)}</option>`,
      ),
    );
  }

  // pi 1.x knows the model's levels exactly; ask once per model.
  #fetchLevels(): void {
    const client = this.#connection.client;
    const model = this.#connection.snapshot?.state?.model;
    if (this.levels !== undefined || client === undefined || model === undefined) return;
    if (!client.capabilities.supports("get_available_thinking_levels")) return;
    const key = `${model.provider}/${model.id}`;
    if (this.#fetched?.model === key || this.#fetching === key) return;
    this.#fetching = key;
    client.getAvailableThinkingLevels().then(
      (levels) => {
        this.#fetched = { model: key, levels };
        this.#fetching = undefined;
        this.requestUpdate();
      },
      () => {
        // The model's own flags are a good enough fallback; do not retry on every update.
        this.#fetched = { model: key, levels: levelsForModel(model) };
        this.#fetching = undefined;
      },
    );
  }
}

declare global {
  interface HTMLElementTagNameMap {
    "pi-thinking-picker": PiThinkingPicker;
  }
}
