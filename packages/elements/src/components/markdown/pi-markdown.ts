import { html, LitElement, type PropertyValues } from "lit";
import { guard } from "lit/directives/guard.js";
import { repeat } from "lit/directives/repeat.js";
import { highlight, highlightedNodes } from "../../internal/highlight.ts";
import { MarkdownBlocks, renderBlock, renderMarkdown } from "../../internal/markdown.ts";
import { baseStyles } from "../../styles/shared.ts";
import { tokenStyles } from "../../styles/tokens.ts";
import { markdownContentStyles } from "./pi-markdown.styles.ts";

/**
 * Renders markdown safely (straight to DOM nodes: raw HTML shows as text, script URLs are removed,
 * links open in a new tab without an opener) and incrementally: while `streaming`, finished blocks
 * are parsed once and only the unfinished tail is parsed again on each change. Finished code
 * blocks are highlighted lazily.
 *
 * @tagname pi-markdown
 * @summary Safe, incremental markdown.
 * @csspart content - The wrapper of the rendered blocks.
 * @csspart code-block - Each fenced code block (`pre`).
 * @cssproperty [--pi-color-code-bg=#f4f5f7] - Background of code.
 */
export class PiMarkdown extends LitElement {
  static override styles = [tokenStyles, baseStyles, markdownContentStyles];
  static override properties = {
    text: { type: String },
    streaming: { type: Boolean, reflect: true },
  };

  /** The markdown source. */
  declare text: string;
  /** True while the text is still growing: the last block is treated as unfinished. */
  declare streaming: boolean;

  readonly #blocks = new MarkdownBlocks();

  constructor() {
    super();
    this.text = "";
    this.streaming = false;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has("text")) this.#blocks.update(this.text);
  }

  protected override render(): unknown {
    const blocks = this.#blocks;
    const tail = blocks.tail;
    return html`<div class="md" part="content">${repeat(
      blocks.finished,
      (_, index) => index,
      (source) =>
        html`<div class="block" data-done>${guard([source], () => renderBlock(source))}</div>`,
    )}${
      tail.trim() === ""
        ? null
        : this.streaming
          ? html`<div class="block">${renderMarkdown(tail)}</div>`
          : html`<div class="block" data-done>${guard([tail], () => renderBlock(tail))}</div>`
    }</div>`;
  }

  protected override updated(): void {
    const codes = this.renderRoot.querySelectorAll<HTMLElement>(
      ".block[data-done] code[data-lang]:not([data-hl])",
    );
    for (const code of codes) {
      code.dataset.hl = "";
      const source = code.textContent ?? "";
      void highlight(source, code.dataset.lang ?? "").then((tokens) => {
        if (tokens !== undefined && code.isConnected && code.textContent === source)
          code.replaceChildren(...highlightedNodes(tokens));
      });
    }
  }
}

declare global {
  interface HTMLElementTagNameMap {
    "pi-markdown": PiMarkdown;
  }
}
