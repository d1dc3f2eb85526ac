import { expect, fixture, html } from "@open-wc/testing";
import fc from "fast-check";
import "../../../src/define.ts";
import { loadMarkdown, type PiCopyEvent, type PiMarkdown } from "../../../src/index.ts";
import { HARD, inlineChunks, SOFT } from "../../../src/internal/markdown/inline-chunks.ts";
import { MarkdownBlocks } from "../../../src/internal/markdown/markdown-blocks.ts";
import { loadCompletion } from "../../../src/internal/markdown/markdown-loader.ts";
import { hostAllowed } from "../../../src/internal/markdown/remote-images.ts";
import { zhCN } from "../../../src/locales.ts";

before(() => loadMarkdown());

const sentence = (i: number): string => `Sentence number ${i} says something about streams. `;
const prose = (size: number): string => {
  let text = "";
  for (let i = 0; text.length < size; i++) text += sentence(i);
  return text;
};

async function markdown(text: string, streaming = false): Promise<PiMarkdown> {
  return fixture<PiMarkdown>(
    html`<pi-markdown .text=${text} ?streaming=${streaming}></pi-markdown>`,
  );
}

function root(el: PiMarkdown): ShadowRoot {
  return el.shadowRoot as ShadowRoot;
}

/** Waits (a frame at a time, for at most two seconds) until `find` returns an element. */
async function until<E extends Element>(find: () => E | null | undefined): Promise<E> {
  for (let i = 0; i < 120; i++) {
    const found = find();
    if (found) return found;
    await new Promise((r) => requestAnimationFrame(r));
  }
  throw new Error("timed out");
}

describe("MarkdownBlocks pieces", () => {
  it("cuts a long paragraph into pieces at sentence ends, each parsed as text", () => {
    const blocks = new MarkdownBlocks();
    const text = prose(5000);
    blocks.update(text);
    expect(blocks.finished.length).to.be.greaterThan(4);
    for (const piece of blocks.finished) {
      expect(piece.length).to.be.at.most(SOFT + 200);
      expect(piece.trimEnd().endsWith(".")).to.equal(true);
    }
    expect([...blocks.finished, blocks.tail].join("").replace(/\s+/g, " ").trim()).to.equal(
      text.replace(/\s+/g, " ").trim(),
    );
  });

  it("gives the same blocks however the text arrives", () => {
    const part = fc.oneof(
      fc.constantFrom(
        "# H\n",
        "- item\n",
        "1. one\n",
        "```js\n",
        "```\n",
        "\n",
        "> q\n",
        "| a |\n",
        "```",
        "   \n",
      ),
      fc.constantFrom("**b** ", "`c` ", "[l](https://x.example) ", "1. ", "# ", "- ", "> "),
      fc.string({ maxLength: 60 }),
      fc.constant(prose(1500)),
    );
    fc.assert(
      fc.property(
        fc.array(part, { maxLength: 12 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        (parts, cuts) => {
          const text = parts.join("");
          const whole = new MarkdownBlocks();
          whole.update(text);
          const streamed = new MarkdownBlocks();
          const points = cuts.map((c) => c % (text.length + 1)).sort((a, b) => a - b);
          for (const point of [...points, text.length]) streamed.update(text.slice(0, point));
          expect(streamed.finished).to.deep.equal(whole.finished);
          expect(streamed.tail).to.equal(whole.tail);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("reads the rest of a line cut into pieces as text when streaming resumes there", () => {
    // A cut lands just before the fence marker or the trailing spaces: the line they end is
    // paragraph text, although on its own the rest would open a fence or be a blank line.
    const lead = `${"word ".repeat(90)}end. `;
    for (const rest of ["```\n", "    \n"]) {
      const text = `${lead}${rest}${prose(2500)}`;
      const whole = new MarkdownBlocks();
      whole.update(text);
      const streamed = new MarkdownBlocks();
      for (let end = 1; end <= text.length; end++) streamed.update(text.slice(0, end));
      expect(streamed.finished).to.deep.equal(whole.finished);
      expect(streamed.tail).to.equal(whole.tail);
    }
  });

  it("keeps a piece that starts like a heading, list or quote as text", async () => {
    // Each marker lands right after a cut: the sentence before it is long enough to end a piece.
    const lead = `${"word ".repeat(90)}end. `;
    const el = await markdown(
      `${lead}# not a heading ${lead}1. not a list ${lead}> not a quote ${lead}- not an item`,
    );
    const r = root(el);
    expect(r.querySelector("h1, ol, ul, blockquote")).to.equal(null);
    const text = r.textContent ?? "";
    for (const kept of ["# not a heading", "1. not a list", "> not a quote", "- not an item"])
      expect(text).to.contain(kept);
  });

  it("cuts text with no place to cut at the hard limit, never inside a surrogate pair", () => {
    const chunks = inlineChunks("😀".repeat(HARD));
    expect(chunks.length).to.be.greaterThan(1);
    for (const chunk of chunks) expect(chunk.length % 2).to.equal(0);
    expect(chunks.join("")).to.equal("😀".repeat(HARD));
  });

  it("never cuts inside code, emphasis or link brackets before the hard limit", () => {
    const text = `${"a ".repeat(300)}\`${"code. ".repeat(200)}\` **${"bold. ".repeat(200)}** end.`;
    for (const chunk of inlineChunks(text)) {
      expect((chunk.match(/`/g) ?? []).length % 2).to.equal(0);
      expect((chunk.match(/\*/g) ?? []).length % 2).to.equal(0);
    }
  });
});

describe("<pi-markdown> streaming", () => {
  it("freezes finished pieces: their elements survive later deltas and the end of the stream", async () => {
    const text = prose(8000);
    const el = await markdown(text.slice(0, 3000), true);
    const first = root(el).querySelector(".block p");
    expect(first).to.not.equal(null);
    for (const end of [4000, 6000, text.length]) {
      el.text = text.slice(0, end);
      await el.updateComplete;
    }
    el.streaming = false;
    await el.updateComplete;
    expect(root(el).querySelector(".block p")).to.equal(first);
    const last = [...root(el).querySelectorAll(".block p")].at(-1);
    expect(last?.textContent?.trim()).to.match(/streams\.$/);
  });

  it("completes unfinished syntax at the open end while streaming, not after", async () => {
    await loadCompletion();
    const el = await markdown("Some **bold", true);
    expect(root(el).querySelector("strong")?.textContent).to.equal("bold");
    el.text = "Call `run(";
    await el.updateComplete;
    expect(root(el).querySelector("code")?.textContent).to.equal("run(");
    el.text = "A [link](https://pi.exam";
    await el.updateComplete;
    // The unfinished link shows its text, never the half URL.
    expect(root(el).querySelector("a")).to.equal(null);
    expect(root(el).textContent).to.contain("link");
    expect(root(el).textContent).to.not.contain("pi.exam");
    el.text = "Some **bold";
    el.streaming = false;
    await el.updateComplete;
    expect(root(el).querySelector("strong")).to.equal(null);
    expect(root(el).textContent).to.contain("**bold");
  });

  it("keeps each finished piece's element from the update that finished it", async () => {
    const text = prose(20_000);
    const el = await markdown("", true);
    const kept: Element[] = [];
    for (let i = 1; i <= 40; i++) {
      el.text = text.slice(0, Math.round((text.length * i) / 40));
      await el.updateComplete;
      const done = [...root(el).querySelectorAll(".block[data-done] > p")];
      expect(done.slice(0, kept.length)).to.deep.equal(kept);
      kept.push(...done.slice(kept.length));
    }
    expect(kept.length).to.be.greaterThan(20);
  });
});

describe("<pi-markdown> code blocks", () => {
  it("labels the language and copies the code through a cancelable pi-copy", async () => {
    const el = await markdown("```ts\nconst a = 1;\n```\n\n```\nplain\n```");
    const heads = root(el).querySelectorAll(".code-head");
    expect(heads.length).to.equal(2);
    expect(heads[0]?.querySelector(".lang")?.textContent).to.equal("ts");
    expect(heads[1]?.querySelector(".lang")?.textContent).to.equal("");
    const copies: PiCopyEvent[] = [];
    el.addEventListener("pi-copy", (e) => {
      copies.push(e);
      e.preventDefault();
    });
    const button = heads[0]?.querySelector("button") as HTMLButtonElement;
    expect(button.getAttribute("aria-label")).to.equal("Copy code");
    button.click();
    await until(() => (button.dataset.copied === "" ? button : null));
    expect(copies.map((e) => [e.text, e.kind])).to.deep.equal([["const a = 1;", "code"]]);
    await expect(el).to.be.accessible();
  });

  it("writes the clipboard when pi-copy is not cancelled", async () => {
    const el = await markdown("```\necho hi\n```");
    const written: string[] = [];
    const original = Object.getOwnPropertyDescriptor(navigator, "clipboard");
    Object.defineProperty(navigator, "clipboard", {
      configurable: true,
      value: { writeText: async (text: string) => void written.push(text) },
    });
    try {
      const button = root(el).querySelector("button.copy") as HTMLButtonElement;
      button.click();
      await until(() => (button.dataset.copied === "" ? button : null));
    } finally {
      if (original) Object.defineProperty(navigator, "clipboard", original);
      else delete (navigator as { clipboard?: unknown }).clipboard;
    }
    expect(written).to.deep.equal(["echo hi"]);
  });

  it("speaks the element's language", async () => {
    const el = await fixture<PiMarkdown>(
      html`<pi-markdown .strings=${zhCN} .text=${"```\nx\n```"}></pi-markdown>`,
    );
    expect(root(el).querySelector("button.copy")?.getAttribute("aria-label")).to.equal("复制代码");
  });
});

describe("<pi-markdown> remote images", () => {
  const source = "![chart](https://img.example.com/c.png?q=secret)";

  it("loads nothing until the user clicks, then loads without a referrer", async () => {
    const el = await markdown(source);
    const slot = root(el).querySelector("[data-src]") as HTMLElement;
    const button = await until(() => slot.querySelector("button"));
    expect(slot.querySelector("img")).to.equal(null);
    expect(button.textContent).to.equal("Load image from img.example.com");
    expect(slot.textContent).to.contain("chart");
    button.click();
    const img = slot.querySelector("img") as HTMLImageElement;
    expect(img.getAttribute("src")).to.equal("https://img.example.com/c.png?q=secret");
    expect(img.referrerPolicy).to.equal("no-referrer");
    expect(img.alt).to.equal("chart");
  });

  it("loads images of allowed hosts at once, also after the allowlist changes", async () => {
    const el = await fixture<PiMarkdown>(
      html`<pi-markdown image-hosts="*.example.com" .text=${source}></pi-markdown>`,
    );
    await until(() => root(el).querySelector("img"));
    const other = await markdown(source);
    await until(() => root(other).querySelector("[data-src] button"));
    expect(root(other).querySelector("img")).to.equal(null);
    other.imageHosts = ["img.example.com"];
    await until(() => root(other).querySelector("img"));
  });

  it("matches hosts exactly or by a *. suffix", () => {
    expect(hostAllowed("img.example.com", ["img.example.com"])).to.equal(true);
    expect(hostAllowed("a.img.example.com", ["*.example.com"])).to.equal(true);
    expect(hostAllowed("example.com", ["*.example.com"])).to.equal(false);
    expect(hostAllowed("evil-example.com", ["*.example.com"])).to.equal(false);
    expect(hostAllowed("img.example.com.evil", ["img.example.com"])).to.equal(false);
  });
});
