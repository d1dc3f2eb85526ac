import { expect, fixture, html } from "@open-wc/testing";
import { render } from "lit";
import "../../../src/define.ts";
import { loadMarkdown, type PiMarkdown, renderMarkdown } from "../../../src/index.ts";
import { MarkdownBlocks } from "../../../src/internal/markdown/markdown-blocks.ts";

// The parser loads lazily; these tests look at parsed output from the start.
before(() => loadMarkdown());

/** Renders markdown into a detached element, as <pi-markdown> does. */
function renderToDom(source: string): HTMLElement {
  const container = document.createElement("div");
  render(renderMarkdown(source), container);
  return container;
}

declare global {
  interface Window {
    __pwned?: number;
  }
}

/** Markdown an attacker might get a model to write. None of it may run or load anything. */
const HOSTILE = [
  "<script>window.__pwned = 1</script>",
  '<img src=x onerror="window.__pwned = 2">',
  "[click](javascript:window.__pwned=3)",
  "[click](JaVaScRiPt:window.__pwned=3)",
  "[click]( javascript:window.__pwned=3 )",
  "[click](&#106;avascript:window.__pwned=3)",
  "[x](vbscript:msgbox(1))",
  '<svg onload="window.__pwned = 4"><circle r="1"/></svg>',
  '<iframe src="javascript:parent.__pwned=5"></iframe>',
  '<iframe srcdoc="<script>parent.__pwned=5</script>"></iframe>',
  "[data](data:text/html;base64,PHNjcmlwdD5wYXJlbnQuX19wd25lZD02PC9zY3JpcHQ+)",
  "![img](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9ImFsZXJ0KDEpIi8+)",
  "![img](javascript:window.__pwned=7)",
  '<a href="javascript:window.__pwned=8">a</a>',
  '<div onmouseover="window.__pwned=9" style="position:fixed;inset:0">x</div>',
  '<object data="javascript:window.__pwned=10"></object>',
  '<embed src="javascript:window.__pwned=11">',
  '<form action="javascript:window.__pwned=12"><button>go</button></form>',
  '<math><mtext><table><mglyph><style><img src=x onerror="window.__pwned=13">',
  '<details open ontoggle="window.__pwned=14">x</details>',
  '<style>@import "http://evil.example/x.css";</style>',
  '<base href="javascript:/a/"><a href="x">x</a>',
  '<meta http-equiv="refresh" content="0;url=javascript:window.__pwned=15">',
  "[ref]\n\n[ref]: javascript:window.__pwned=16",
  "<javascript:window.__pwned=17>",
  "```html\n<script>window.__pwned = 18</script>\n```",
  '<a href="https://ok.example" onclick="window.__pwned=19">ok</a>',
  '<input autofocus onfocus="window.__pwned=20">',
  '<video><source onerror="window.__pwned=21"></video>',
  '<p title="</p><img src=x onerror=window.__pwned=22>">t</p>',
];

describe("markdown safety", () => {
  afterEach(() => {
    window.__pwned = undefined;
  });

  for (const [index, source] of HOSTILE.entries()) {
    it(`neutralises hostile input #${index}: ${source.slice(0, 40)}`, async () => {
      const el = await fixture<PiMarkdown>(html`<pi-markdown .text=${source}></pi-markdown>`);
      await new Promise((r) => setTimeout(r, 30));
      const root = el.shadowRoot as ShadowRoot;
      for (const link of root.querySelectorAll("a")) {
        link.click();
        link.dispatchEvent(new MouseEvent("mouseover", { bubbles: true }));
      }
      for (const div of root.querySelectorAll("div, details"))
        div.dispatchEvent(new MouseEvent("mouseover", { bubbles: true }));
      await new Promise((r) => setTimeout(r, 30));
      expect(window.__pwned, "script ran").to.equal(undefined);
      expect(
        root.querySelectorAll(
          "script, iframe, svg, img, object, embed, form, input, style, base, meta, math, video",
        ).length,
      ).to.equal(0);
      for (const node of root.querySelectorAll("*")) {
        for (const attr of node.attributes)
          expect(attr.name.startsWith("on"), `${node.tagName} ${attr.name}`).to.equal(false);
        const href = node.getAttribute("href") ?? node.getAttribute("src");
        if (href !== null) expect(href).to.match(/^(https?:|mailto:)/i);
      }
    });
  }

  it("opens links in a new tab without opener or referrer", () => {
    const out = renderToDom("[pi](https://pi.example/docs) and <https://x.example>");
    const links = [...out.querySelectorAll("a")];
    expect(links).to.have.length(2);
    for (const a of links) {
      expect(a.getAttribute("target")).to.equal("_blank");
      expect(a.getAttribute("rel")).to.contain("noopener").and.contain("noreferrer");
    }
  });

  it("shows raw HTML as text and keeps code", () => {
    const out = renderToDom("Use <div> here\n\n```js\nlet a = 1 < 2;\n```");
    expect(out.querySelector("p")?.textContent).to.equal("Use <div> here");
    // The only elements are the paragraph and the code block's own.
    expect(out.querySelectorAll("div:not(.code, .code-head)").length).to.equal(0);
    const code = out.querySelector("code");
    expect(code?.dataset.lang).to.equal("js");
    expect(code?.textContent).to.equal("let a = 1 < 2;");
  });

  it("renders remote images as placeholders that load nothing", () => {
    const out = renderToDom(
      "![chart](https://tracker.example/p.png?secret=1) ![x](data:image/png;base64,AA)",
    );
    expect(out.querySelector("img")).to.equal(null);
    expect(out.querySelector("[data-src]")?.getAttribute("data-src")).to.equal(
      "https://tracker.example/p.png?secret=1",
    );
    // Not http(s): only the label.
    expect(out.querySelectorAll("[data-src]").length).to.equal(1);
    expect(out.textContent).to.contain("x");
  });
});

describe("markdown rendering", () => {
  it("renders GFM structure as elements and entities as characters", () => {
    const out = renderToDom(
      "## Title\n\n- [x] done\n- [ ] todo\n\n3. three\n\n| a | b |\n|:-|-:|\n| `1` | **2** |\n\n> ~~old~~ *new* &amp; &lt;b&gt;\n\n---",
    );
    expect(out.querySelector("h2")?.textContent).to.equal("Title");
    expect([...out.querySelectorAll("ul > li")].map((li) => li.textContent)).to.deep.equal([
      "\u2611 done",
      "\u2610 todo",
    ]);
    expect(out.querySelector("ol")?.getAttribute("start")).to.equal("3");
    expect(out.querySelector("th")?.getAttribute("align")).to.equal("left");
    expect(out.querySelector("td code")?.textContent).to.equal("1");
    expect(out.querySelector("td strong")?.textContent).to.equal("2");
    expect(out.querySelector("blockquote del")?.textContent).to.equal("old");
    expect(out.querySelector("blockquote em")?.textContent).to.equal("new");
    expect(out.querySelector("blockquote")?.textContent).to.contain("& <b>");
    expect(out.querySelector("blockquote b")).to.equal(null);
    expect(out.querySelector("hr")).to.not.equal(null);
  });

  it("re-renders a highlighted code block whose text changed", async () => {
    const el = await fixture<PiMarkdown>(
      html`<pi-markdown .text=${"```js\nlet a = 1;\n```"}></pi-markdown>`,
    );
    const root = el.shadowRoot as ShadowRoot;
    for (let i = 0; i < 50 && !root.querySelector("[class^=shj-syn]"); i++)
      await new Promise((r) => setTimeout(r, 20));
    el.text = "```js\nlet b = 2;\n```";
    await el.updateComplete;
    expect(root.querySelector("code")?.textContent).to.equal("let b = 2;");
    for (let i = 0; i < 50 && !root.querySelector("code [class^=shj-syn]"); i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(root.querySelector("code [class^=shj-syn]")).to.not.equal(null);
  });
});

describe("MarkdownBlocks", () => {
  it("freezes finished blocks and keeps fences together", () => {
    const blocks = new MarkdownBlocks();
    blocks.update("# Title\n\nPara one\n\n```\ncode\n\nstill code\n");
    expect(blocks.finished).to.deep.equal(["# Title\n\n", "Para one\n\n"]);
    expect(blocks.tail).to.equal("```\ncode\n\nstill code\n");
    const frozen = blocks.finished[0];
    blocks.update("# Title\n\nPara one\n\n```\ncode\n\nstill code\n```\n\nafter");
    expect(blocks.finished[0]).to.equal(frozen);
    expect(blocks.finished).to.have.length(3);
    expect(blocks.tail).to.equal("after");
  });

  it("keeps indented continuations with their item, splits lists per item, resets on replaced text", () => {
    const blocks = new MarkdownBlocks();
    blocks.update("- a\n\n  more a\n- b\n\nnext");
    expect(blocks.finished).to.deep.equal(["- a\n\n  more a\n", "- b\n\n"]);
    expect(blocks.update("other")).to.equal(true);
    expect(blocks.finished).to.have.length(0);
  });

  it("highlights finished code blocks", async () => {
    const el = await fixture<PiMarkdown>(
      html`<pi-markdown .text=${"```js\nconst x = 'a';\n```"}></pi-markdown>`,
    );
    for (let i = 0; i < 50 && !el.shadowRoot?.querySelector("[class^=shj-syn]"); i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(el.shadowRoot?.querySelector("[class^=shj-syn]")).to.not.equal(null);
    await expect(el).to.be.accessible();
  });
});
