import { html, LitElement, nothing, type PropertyValues, svg } from "lit";
import { PiErrorEvent } from "../../events/pi-error.ts";
import { LocaleController } from "../../internal/controllers/locale-controller.ts";
import { format } from "../../internal/i18n/format.ts";
import type { PiStrings } from "../../internal/i18n/i18n.ts";
import { type PiPairStrings, pairStringsFor } from "../../internal/i18n/pair-strings.ts";
import { baseStyles } from "../../styles/shared.ts";
import { tokenStyles } from "../../styles/tokens.ts";
import { pairStyles } from "./pi-pair.styles.ts";

/** A pairing ticket as `<pi-pair>` shows it: the link it opens, its short code, its expiry. */
export interface PairingOffer {
  /** The link the other device opens (it carries the single-use pairing ticket). */
  readonly url: string;
  /** The same ticket as a short code, for typing. */
  readonly code: string;
  /** When it expires, ms since the epoch. */
  readonly expiresAt: number;
  /** Whether the other device will only watch. */
  readonly readOnly?: boolean;
}

/** Mints a fresh pairing ticket (for a bridge: `POST /api/sessions/:name/pair`, then a link). */
export type PairingMinter = () => Promise<PairingOffer>;

/** The QR modules of a link: `size` squares a side, `get(x, y)` dark or not. */
interface QrBitmap {
  readonly size: number;
  get(x: number, y: number): boolean;
}

/** Modules of light margin around the code, as ISO 18004 asks. */
const QUIET_ZONE = 4;

/**
 * "Continue on another device": a QR code and a short code for a single-use pairing ticket, with
 * how long it has left and **New code** once it has expired. It mints one with `mint` when shown
 * (and again on **New code**); the QR library loads only then. Failures are shown and fired as
 * `pi-error` (action `pair`).
 *
 * Load it lazily: `import "@pi-kit/elements/pair"` registers the tag.
 *
 * @tagname pi-pair
 * @summary A QR code and short code to open the session on another device.
 * @event pi-error - Minting failed (`action` is `pair`).
 * @csspart qr - The QR code (an SVG).
 * @csspart code - The short code.
 * @csspart countdown - How long the code has left, or that it has expired.
 * @csspart new-code-button - Mints a new code.
 * @csspart copy-button - Copies the link.
 * @csspart error - A failure, in words.
 */
export class PiPair extends LitElement {
  static override styles = [tokenStyles, baseStyles, pairStyles];
  static override properties = {
    mint: { attribute: false },
    strings: { attribute: false },
    theme: { type: String, reflect: true },
    offer: { state: true },
    qr: { state: true },
    now: { state: true },
    failure: { state: true },
    copied: { state: true },
  };

  /** Mints a pairing ticket; the element calls it when shown and on **New code**. */
  declare mint: PairingMinter | undefined;
  /** Overrides for the built-in strings of the resolved language. */
  declare strings: Partial<PiStrings & PiPairStrings> | undefined;
  /** `light`, `dark`, or `auto` / unset to follow `prefers-color-scheme`. */
  declare theme: "light" | "dark" | "auto" | undefined;
  /** The pairing ticket on show. */
  declare offer: PairingOffer | undefined;
  declare qr: QrBitmap | undefined;
  declare now: number;
  declare failure: string | undefined;
  declare copied: boolean;

  readonly #locale = new LocaleController(this, pairStringsFor);
  #timer: ReturnType<typeof setInterval> | undefined;
  #minting: Promise<void> | undefined;

  constructor() {
    super();
    this.now = Date.now();
    this.copied = false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#timer = setInterval(() => {
      this.now = Date.now();
    }, 1000);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearInterval(this.#timer);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has("mint") && this.mint !== undefined) void this.refresh();
  }

  /** Mints a new pairing ticket and shows it (what **New code** does). */
  refresh(): Promise<void> {
    this.#minting ??= this.#refresh().finally(() => {
      this.#minting = undefined;
    });
    return this.#minting;
  }

  async #refresh(): Promise<void> {
    const mint = this.mint;
    if (mint === undefined) return;
    this.failure = undefined;
    this.offer = undefined;
    this.qr = undefined;
    try {
      const [offer, { generate }] = await Promise.all([mint(), import("lean-qr")]);
      this.qr = generate(offer.url);
      this.offer = offer;
      this.now = Date.now();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.failure = format(this.#locale.strings.pairFailed, { message });
      this.dispatchEvent(new PiErrorEvent("pair", error));
    }
  }

  protected override render(): unknown {
    const s = this.#locale.strings;
    const offer = this.offer;
    const seconds = offer === undefined ? 0 : Math.ceil((offer.expiresAt - this.now) / 1000);
    const expired = offer !== undefined && seconds <= 0;
    return html`
      <h2>${s.pairTitle}</h2>
      <p class="hint">${s.pairHint}</p>
      ${this.#qr(expired, s)}
      ${
        offer === undefined
          ? html`<p class="muted" role="status">${this.failure === undefined ? s.pairMinting : ""}</p>`
          : html`
              <p class="code ${expired ? "expired" : ""}" part="code" aria-label=${s.pairCodeLabel}>
                ${offer.code}
              </p>
              <p class="muted" part="countdown" role="status">
                ${expired ? s.pairExpired : format(s.pairExpiresIn, { seconds })}
              </p>
              ${offer.readOnly ? html`<p class="muted">${s.pairReadOnly}</p>` : nothing}
            `
      }
      ${this.failure === undefined ? nothing : html`<p class="error" part="error" role="alert">${this.failure}</p>`}
      <div class="actions">
        ${
          offer !== undefined && !expired
            ? html`<button type="button" part="copy-button" @click=${this.#copy}>
                ${this.copied ? s.pairLinkCopied : s.pairCopyLink}
              </button>`
            : nothing
        }
        ${
          expired || this.failure !== undefined
            ? html`<button type="button" class="primary" part="new-code-button" @click=${() => void this.refresh()}>
                ${s.pairNewCode}
              </button>`
            : nothing
        }
      </div>
    `;
  }

  #qr(expired: boolean, s: PiPairStrings): unknown {
    const qr = this.qr;
    if (qr === undefined || this.offer === undefined) {
      return html`<div class="qr placeholder" aria-hidden="true"></div>`;
    }
    let path = "";
    for (let y = 0; y < qr.size; y++) {
      for (let x = 0; x < qr.size; x++) {
        if (qr.get(x, y)) path += `M${x + QUIET_ZONE} ${y + QUIET_ZONE}h1v1h-1z`;
      }
    }
    const side = qr.size + 2 * QUIET_ZONE;
    return html`<svg
      class="qr ${expired ? "expired" : ""}"
      part="qr"
      role="img"
      aria-label=${s.pairQrLabel}
      data-url=${this.offer.url}
      viewBox="0 0 ${side} ${side}"
      shape-rendering="crispEdges"
    >${svg`<path d=${path}></path>`}</svg>`;
  }

  async #copy(): Promise<void> {
    if (this.offer === undefined) return;
    try {
      await navigator.clipboard.writeText(this.offer.url);
      this.copied = true;
    } catch (error) {
      this.dispatchEvent(new PiErrorEvent("pair", error));
    }
  }
}

declare global {
  interface HTMLElementTagNameMap {
    "pi-pair": PiPair;
  }
}
