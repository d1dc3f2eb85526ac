import type { Model } from "@pi-kit/protocol";
import { css, html, nothing } from "lit";
import { PiModelChangeEvent } from "../../events/pi-model-change.ts";
import { busyTask } from "../../internal/busy-task.ts";
import type { PiConnection } from "../../internal/context.ts";
import { ConnectionController } from "../../internal/controllers/connection-controller.ts";
import { format } from "../../internal/i18n/format.ts";
import { PickerElement } from "../../internal/picker-element.ts";
import { chooseThrough, selectView } from "../../internal/select-choice.ts";
import { pickerStyles } from "../../styles/picker.ts";
import { baseStyles } from "../../styles/shared.ts";
import { tokenStyles } from "../../styles/tokens.ts";

const keyOf = (model: Pick<Model, "provider" | "id">): string => `${model.provider}/${model.id}`;

/**
 * Chooses the session's model from `get_available_models` and switches with `set_model`. A native
 * select grouped by provider: keyboard, typeahead and screen readers work as on any form.
 *
 * @tagname pi-model-picker
 * @summary Model picker.
 * @event pi-model-change - Before the model is switched; cancelable. {@link PiModelChangeEvent}
 * @event pi-error - Loading or switching failed (`action` is `load-models` or `set-model`).
 * @csspart label - The visible label.
 * @csspart select - The select.
 * @csspart status - Loading (for screen readers; the select says it) and error text.
 * @cssstate busy - Loading or switching.
 */
export class PiModelPicker extends PickerElement {
  static override styles = [
    tokenStyles,
    baseStyles,
    pickerStyles,
    // Its width before it connects is its width after: no model name pushes the header around.
    css`
      select {
        width: 12em;
      }
    `,
  ];
  static override properties = {
    models: { attribute: false },
    hideLabel: { type: Boolean, attribute: "hide-label" },
    busy: { state: true },
    error: { state: true },
  };

  /** The models to offer; loaded from the client when unset. */
  declare models: readonly Model[] | undefined;
  /** Keeps the label for screen readers only. */
  declare hideLabel: boolean;
  declare busy: boolean;
  declare error: string | undefined;

  readonly #internals = this.attachInternals();
  readonly #connection = new ConnectionController(this, {
    observe: true,
    changed: (next) => void this.#load(next),
  });
  #loaded: readonly Model[] = [];
  /** The model just chosen here, shown until pi's state reports it. */
  #chosen: Model | undefined;

  constructor() {
    super();
    this.hideLabel = false;
    this.busy = false;
  }

  /** The model in use. */
  get value(): Model | undefined {
    return this.#chosen ?? this.#connection.snapshot?.state?.model;
  }

  /** Reloads the model list from the client. */
  refresh(): Promise<void> {
    return this.#load(this.#connection.connection);
  }

  /** Switches to a model (fires `pi-model-change` first). */
  async choose(model: Model): Promise<void> {
    if (!this.dispatchEvent(new PiModelChangeEvent(model))) return;
    const client = this.#connection.client;
    if (client === undefined) {
      this.#chosen = model;
      this.requestUpdate();
      return;
    }
    // Reading the state back records the model, and the thinking level pi clamped to it.
    await chooseThrough(
      this,
      "set-model",
      client,
      async () => {
        this.#chosen = await client.setModel(model.provider, model.id);
      },
      () => {
        this.#chosen = undefined;
      },
    );
  }

  protected override willUpdate(): void {
    this.#connection.resolve();
    if (this.busy) this.#internals.states.add("busy");
    else this.#internals.states.delete("busy");
  }

  protected override render(): unknown {
    const s = this.locale.strings;
    const models = this.models ?? this.#loaded;
    const current = this.value;
    const list =
      current && !models.some((m) => keyOf(m) === keyOf(current)) ? [current, ...models] : models;
    const groups = new Map<string, Model[]>();
    for (const model of list)
      groups.set(model.provider, [...(groups.get(model.provider) ?? []), model]);
    const selected = current ? keyOf(current) : "";
    return html`${selectView(
      this,
      s.modelLabel,
      {
        disabled: list.length === 0 || this.busy,
        busy: this.busy,
        change: (key) => this.#onChange(key),
      },
      html`${current ? nothing : html`<option value="" selected>${this.busy ? s.loading : s.modelNone}</option>`}
        ${[...groups].map(
          ([provider, group]) => html`<optgroup label=${provider}>
            ${group.map((m) => html`<option value=${keyOf(m)} ?selected=${keyOf(m) === selected}>${m.name || m.id}</option>`)}
          </optgroup>`,
        )}`,
    )}${this.#status()}`;
  }

  #status(): unknown {
    const s = this.locale.strings;
    if (this.error !== undefined)
      return html`<span part="status" class="status error" role="alert">${format(s.loadFailed, { error: this.error })}</span>`;
    // The select says it too while it has no model: no text beside it to widen the picker.
    return this.busy
      ? html`<span part="status" class="sr-only" role="status">${s.loading}</span>`
      : nothing;
  }

  #onChange(key: string): void {
    const model = (this.models ?? this.#loaded).find((m) => keyOf(m) === key);
    if (model !== undefined) void this.choose(model);
  }

  async #load(connection: PiConnection | undefined): Promise<void> {
    const client = connection?.client;
    if (client === undefined || this.models !== undefined) return;
    this.error = undefined;
    await busyTask(
      this,
      "load-models",
      async () => {
        this.#loaded = await client.getAvailableModels();
      },
      (error) => {
        this.error = error instanceof Error ? error.message : String(error);
      },
    );
  }
}

declare global {
  interface HTMLElementTagNameMap {
    "pi-model-picker": PiModelPicker;
  }
}
