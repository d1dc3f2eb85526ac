import { expect, fixture, html } from "@open-wc/testing";
import {
  hostileInputs,
  nestedLists,
  staircaseList,
} from "../../../../../bench/elements/markdown-inputs.ts";
import "../../../src/define.ts";
import { loadMarkdown, type PiMarkdown } from "../../../src/index.ts";
import { MAX_DEPTH } from "../../../src/internal/markdown/markdown-lexer.ts";

// Long inputs: none may throw, hang (the test timeout bounds them) or lose its text.

async function render(text: string, deltas = 0): Promise<PiMarkdown> {
  const el = await fixture<PiMarkdown>(html`<pi-markdown></pi-markdown>`);
  if (deltas > 0) {
    el.streaming = true;
    for (let i = 1; i <= deltas; i++) {
      el.text = text.slice(0, Math.round((text.length * i) / deltas));
      await el.updateComplete;
    }
    el.streaming = false;
  } else {
    el.text = text;
  }
  await el.updateComplete;
  return el;
}

function text(el: PiMarkdown): string {
  return el.shadowRoot?.textContent ?? "";
}

/** The rendered markup, without Lit's markers. */
function markup(el: PiMarkdown): string {
  return (el.shadowRoot?.querySelector(".md")?.innerHTML ?? "").replace(/<!--[^>]*-->/g, "");
}

/** The deepest nesting of `selector` elements inside each other. */
function depth(el: PiMarkdown, selector: string): number {
  let deepest = 0;
  for (const node of el.shadowRoot?.querySelectorAll(selector) ?? []) {
    let d = 0;
    for (let n: Element | null = node; n !== null; n = n.parentElement?.closest(selector) ?? null)
      d++;
    deepest = Math.max(deepest, d);
  }
  return deepest;
}

describe("long and hostile markdown", function () {
  this.timeout(60_000);
  before(() => loadMarkdown());

  it('nests 2000 quotes only so deep; the rest is text ("> ".repeat(2000) + "x")', async () => {
    const el = await render(`${"> ".repeat(2000)}x`);
    expect(depth(el, "blockquote")).to.be.within(1, MAX_DEPTH);
    expect(text(el).trimEnd().endsWith("> > x")).to.equal(true);
  });

  it('nests 10000 list markers only so deep ("1. ".repeat(10000) + "x")', async () => {
    const el = await render(`${"1. ".repeat(10_000)}x`);
    expect(depth(el, "ol")).to.be.within(1, MAX_DEPTH);
    expect(text(el).trimEnd().endsWith("1. 1. x")).to.equal(true);
  });

  it('renders "_a".repeat(25000) streamed in 40 deltas as it renders it at once', async () => {
    for (const source of ["_a".repeat(25_000), `x_${"a_b ".repeat(10_000)}`]) {
      const el = await render(source);
      expect(text(el).replace(/\s/g, "")).to.equal(source.replace(/\s/g, ""));
      const once = markup(el);
      expect(markup(await render(source, 40))).to.equal(once);
    }
  });

  it("renders 1 MB of nested lists", async () => {
    for (const source of [nestedLists(1_000_000), staircaseList(1_000_000)]) {
      const el = await render(source);
      const last =
        source
          .trimEnd()
          .split("\n")
          .at(-1)
          ?.replace(/^[\s\-1.]+/, "") ?? "";
      expect(text(el)).to.contain(last.replace(/[*`]/g, ""));
      expect(depth(el, "ul, ol")).to.be.at.most(MAX_DEPTH);
    }
  });

  it("renders every hostile input of 100 KB, keeping its text", async () => {
    for (const [name, source] of Object.entries(hostileInputs(100_000))) {
      const el = await render(source);
      const shown = text(el).replace(/\s/g, "");
      expect(shown.length, name).to.be.greaterThan(source.replace(/\s/g, "").length / 4);
    }
  });
});
