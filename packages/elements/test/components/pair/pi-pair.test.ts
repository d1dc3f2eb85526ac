import { expect, fixture, html, oneEvent, waitUntil } from "@open-wc/testing";
import type { PairingOffer, PiErrorEvent, PiPair } from "../../../src/index.ts";

/** Whether the page has fetched the QR library (it must load only when a `<pi-pair>` is shown). */
const qrLoaded = (): boolean =>
  performance.getEntriesByType("resource").some((entry) => entry.name.includes("lean-qr"));

const URL_ON_PHONE =
  "http://127.0.0.1:5173/?session=main#pair=pkpair_abcdefghijklmnopqrstuvwxyz012345";

describe("<pi-pair>", () => {
  it("loads its QR library only when shown, then draws the link as an SVG QR code and the short code", async () => {
    expect(qrLoaded(), "loaded before anything asked for it").to.equal(false);
    await import("../../../src/pair.ts");
    expect(qrLoaded(), "loaded with the element's module").to.equal(false);
    let mints = 0;
    const offer: PairingOffer = {
      url: URL_ON_PHONE,
      code: "K7QM4PXR",
      expiresAt: Date.now() + 60_000,
    };
    const el = await fixture<PiPair>(
      html`<pi-pair .mint=${async () => {
        mints++;
        return offer;
      }}></pi-pair>`,
    );
    await waitUntil(() => el.shadowRoot?.querySelector("svg[part=qr]"), "no QR code");
    expect(qrLoaded()).to.equal(true);
    expect(mints).to.equal(1);
    const qr = el.shadowRoot?.querySelector("svg[part=qr]") as SVGSVGElement;
    expect(qr.getAttribute("data-url")).to.equal(URL_ON_PHONE);
    expect(qr.getAttribute("role")).to.equal("img");
    // A version 4+ code (33+ modules) for a link of this length, with its quiet zone.
    const side = Number(qr.getAttribute("viewBox")?.split(" ")[2]);
    expect(side).to.be.at.least(33 + 8);
    expect(qr.querySelector("path")?.getAttribute("d")?.length).to.be.above(1000);
    expect(el.shadowRoot?.querySelector("[part=code]")?.textContent?.trim()).to.equal("K7QM4PXR");
    expect(el.shadowRoot?.querySelector("[part=countdown]")?.textContent).to.match(
      /Expires in (59|60) s/,
    );
    await expect(el).to.be.accessible();
  });

  it("says when the code has expired and mints a new one on New code", async () => {
    await import("../../../src/pair.ts");
    let mints = 0;
    const el = await fixture<PiPair>(
      html`<pi-pair .mint=${async () => {
        mints++;
        return { url: URL_ON_PHONE, code: `CODE000${mints}`, expiresAt: Date.now() - 1 };
      }}></pi-pair>`,
    );
    await waitUntil(() => el.shadowRoot?.querySelector("[part=new-code-button]"), "no New code");
    expect(el.shadowRoot?.querySelector("[part=countdown]")?.textContent).to.contain("expired");
    expect(el.shadowRoot?.querySelector("[part=copy-button]")).to.equal(null);
    el.shadowRoot?.querySelector<HTMLButtonElement>("[part=new-code-button]")?.click();
    await waitUntil(
      () =>
        mints === 2 &&
        el.shadowRoot?.querySelector("[part=code]")?.textContent?.includes("CODE0002"),
    );
  });

  it("shows a failed mint and fires pi-error", async () => {
    await import("../../../src/pair.ts");
    const el = document.createElement("pi-pair");
    const failed = oneEvent(el, "pi-error");
    el.mint = async () => {
      throw new Error("The ticket does not open this session");
    };
    document.body.append(el);
    const event = (await failed) as unknown as PiErrorEvent;
    expect(event.action).to.equal("pair");
    await el.updateComplete;
    expect(el.shadowRoot?.querySelector("[part=error]")?.textContent).to.contain("does not open");
    el.remove();
  });
});
