import { expect, fixture, html } from "@open-wc/testing";
import { css, LitElement } from "lit";
import { adoptPartStyles, LazyPart } from "../../src/internal/lazy-part.ts";

describe("LazyPart", () => {
  it("loads its module once, however many ask", async () => {
    let calls = 0;
    const part = new LazyPart(async () => {
      calls++;
      return { name: "panel" };
    });
    expect(part.module).to.equal(undefined);
    const [a, b] = await Promise.all([part.load(), part.load()]);
    expect(a).to.deep.equal({ name: "panel" });
    expect(b).to.equal(a);
    expect(part.module).to.equal(a);
    await part.load();
    expect(calls).to.equal(1);
  });

  it("gives undefined for a chunk that failed to load, and tries again on the next call", async () => {
    let calls = 0;
    const part = new LazyPart(async () => {
      calls++;
      if (calls === 1) throw new TypeError("Failed to fetch dynamically imported module");
      return { ok: true };
    });
    expect(await part.load()).to.equal(undefined);
    expect(part.module).to.equal(undefined);
    expect(await part.load()).to.deep.equal({ ok: true });
    expect(calls).to.equal(2);
  });

  it("makes an update that shows the part wait for it, and lets others run at once", async () => {
    let release: (value: { ready: boolean }) => void = () => {};
    const part = new LazyPart(
      () => new Promise<{ ready: boolean }>((resolve) => (release = resolve)),
    );
    const order: string[] = [];
    expect(
      part.schedule(
        () => false,
        () => void order.push("plain"),
      ),
    ).to.equal(undefined);
    const waiting = part.schedule(
      () => true,
      () => {
        order.push(`shown:${part.module?.ready}`);
        return undefined;
      },
    );
    expect(order).to.deep.equal(["plain"]);
    release({ ready: true });
    await waiting;
    expect(order).to.deep.equal(["plain", "shown:true"]);
  });
});

class PartHost extends LitElement {
  static override styles = css`
    :host {
      display: block;
      color: rgb(1, 2, 3);
    }
  `;
  protected override render(): unknown {
    return html`<p>text</p>`;
  }
}
customElements.define("lazy-part-host", PartHost);

describe("adoptPartStyles", () => {
  it("adds a part's styles after the element's own, each once", async () => {
    const el = await fixture<PartHost>(html`<lazy-part-host></lazy-part-host>`);
    const p = el.shadowRoot?.querySelector("p") as HTMLElement;
    const bold = css`
      p {
        font-weight: 700;
      }
    `;
    const italic = css`
      p {
        font-style: italic;
      }
    `;
    adoptPartStyles(el, [bold]);
    adoptPartStyles(el, [bold, italic]);
    expect(getComputedStyle(p).fontWeight).to.equal("700");
    expect(getComputedStyle(p).fontStyle).to.equal("italic");
    expect(getComputedStyle(el).color).to.equal("rgb(1, 2, 3)");
    expect(el.shadowRoot?.adoptedStyleSheets.length).to.equal(3);
  });
});
