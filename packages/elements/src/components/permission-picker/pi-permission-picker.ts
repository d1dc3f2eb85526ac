import {
  PERMISSION_MODES,
  PERMISSION_STATUS_KEY,
  type PermissionMode,
  permissionModeCommand,
} from "@pi-kit/client";
import { html, nothing } from "lit";
import { live } from "lit/directives/live.js";
import { PiPermissionChangeEvent } from "../../events/pi-permission-change.ts";
import { busyTask } from "../../internal/busy-task.ts";
import { ConnectionController } from "../../internal/controllers/connection-controller.ts";
import { ControlController } from "../../internal/controllers/control-controller.ts";
import type { PiStrings } from "../../internal/i18n/pi-strings.ts";
import { PickerElement } from "../../internal/picker-element.ts";
import { pickerStyles } from "../../styles/picker.ts";
import { baseStyles } from "../../styles/shared.ts";
import { tokenStyles } from "../../styles/tokens.ts";

/** The words for a mode. */
function modeLabel(mode: PermissionMode, s: PiStrings): string {
  return mode === "ask"
    ? s.permissionAsk
    : mode === "auto-edits"
      ? s.permissionAutoEdits
      : s.permissionFull;
}

/**
 * Shows and sets the session's permission mode, which pi-kit's permission extension (loaded by
 * the bridge, or by a host with `permissionModes()`) publishes as the status
 * `PERMISSION_STATUS_KEY`: Ask first, Auto-edit or Full access. Choosing one sends the extension's
 * `/permissions <mode>` command, which pi runs at once, also during a run. A watcher sees the mode
 * but cannot change it; nothing shows while pi has no permission extension.
 *
 * @tagname pi-permission-picker
 * @summary Permission-mode picker.
 * @event pi-permission-change - Before the mode is changed; cancelable. {@link PiPermissionChangeEvent}
 * @event pi-error - Changing the mode failed (`action` is `set-permission-mode`).
 * @csspart label - The visible label.
 * @csspart select - The select.
 */
export class PiPermissionPicker extends PickerElement {
  static override styles = [tokenStyles, baseStyles, pickerStyles];
  static override properties = {
    hideLabel: { type: Boolean, attribute: "hide-label" },
    busy: { state: true },
  };

  /** Keeps the label for screen readers only. */
  declare hideLabel: boolean;
  declare busy: boolean;

  readonly #connection = new ConnectionController(this, { observe: true });
  readonly #control = new ControlController(this);
  #chosen: PermissionMode | undefined;

  constructor() {
    super();
    this.hideLabel = false;
    this.busy = false;
  }

  /** The mode in effect, as pi's extension last published it (or the one being set). */
  get value(): PermissionMode | undefined {
    const published = this.#connection.snapshot?.ui.statuses.get(PERMISSION_STATUS_KEY);
    return this.#chosen ?? PERMISSION_MODES.find((mode) => mode === published);
  }

  /** Changes the mode (fires `pi-permission-change` first). */
  async choose(mode: PermissionMode): Promise<void> {
    if (!this.dispatchEvent(new PiPermissionChangeEvent(mode))) return;
    const client = this.#connection.client;
    this.#chosen = mode;
    await busyTask(this, "set-permission-mode", async () => {
      // An extension command: pi runs it at once, even while it streams.
      await client?.prompt(permissionModeCommand(mode));
    });
    // The status says what pi really chose (a mode the operator forbids is refused with a notice).
    this.#chosen = undefined;
    this.requestUpdate();
  }

  protected override willUpdate(): void {
    this.#connection.resolve();
    this.#control.watch(this.#connection.client);
  }

  protected override render(): unknown {
    const current = this.value;
    this.hidden = current === undefined;
    if (current === undefined) return nothing;
    const s = this.locale.strings;
    return html`<label part="label" for="select" class=${this.hideLabel ? "sr-only" : "label"}>${s.permissionLabel}</label>
      <select
        part="select"
        id="select"
        ?disabled=${this.busy || this.#control.watching || this.#connection.client === undefined}
        @change=${(e: Event) => void this.choose((e.target as HTMLSelectElement).value as PermissionMode)}
      >
        ${PERMISSION_MODES.map((mode) => html`<option value=${mode} .selected=${live(mode === current)}>${modeLabel(mode, s)}</option>`)}
      </select>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    "pi-permission-picker": PiPermissionPicker;
  }
}
