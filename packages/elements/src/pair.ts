/**
 * @module
 * Registers `<pi-pair>` (a side-effect import), "continue on another device", which
 * `@pi-kit/elements/define` leaves out so a page loads it (and its QR library) only when it shows
 * it: `await import("@pi-kit/elements/pair")`. A tag already defined is left alone; where there is
 * no registry (Node without Lit's shim) it registers nothing.
 *
 * @example
 * ```ts
 * await import("@pi-kit/elements/pair");
 * const pair = document.createElement("pi-pair");
 * pair.mint = async () => {
 *   const ticket = await bridgeApi.post(`/api/sessions/${name}/pair`); // { ticket, code, expiresAt }
 *   return { url: `${location.origin}/?session=${name}#pair=${ticket.ticket}`, ...ticket };
 * };
 * dialog.append(pair);
 * ```
 */
import { PiPair } from "./components/pair/pi-pair.ts";

export { type PairingMinter, type PairingOffer, PiPair } from "./components/pair/pi-pair.ts";
export type { PiPairStrings } from "./internal/i18n/pair-strings.ts";

const registry: CustomElementRegistry | undefined = globalThis.customElements;
if (registry !== undefined && registry.get("pi-pair") === undefined)
  registry.define("pi-pair", PiPair);
