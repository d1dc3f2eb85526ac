import { html, LitElement, type PropertyValues } from "lit";
import { guard } from "lit/directives/guard.js";
import { copyFromButton } from "../../internal/copy.ts";
import { format } from "../../internal/i18n/format.ts";
import type { PiStrings } from "../../internal/i18n/i18n.ts";
import { en } from "../../internal/i18n/locales/en.ts";
import { adoptPartStyles } from "../../internal/lazy-part.ts";
import { highlightLater } from "../../internal/markdown/highlight-later.ts";
import { plainMarkdown } from "../../internal/markdown/markdown.ts";
import { MarkdownBlocks, startsList } from "../../internal/markdown/markdown-blocks.ts";
import {
  loadCompletion,
  loadMarkdown,
  markdownTemplates,
} from "../../internal/markdown/markdown-loader.ts";
import { baseStyles } from "../../styles/shared.ts";
import { tokenStyles } from "../../styles/tokens.ts";
import { markdownContentStyles, syntaxStyles } from "./pi-markdown.styles.ts";

// Finished blocks are rendered in groups of this many.
const GROUP = 16;

function blockClass(source: string): string {
  return startsList(source) ? "block list" : "block";
}

/**
 * Renders markdown safely (straight to DOM nodes: raw HTML shows as text, script URLs are removed,
 * links open in a new tab without an opener) and incrementally: while `streaming`, finished blocks
 * (and finished pieces of a long paragraph) are parsed once and only the open end is parsed again
 * on each change, with its unfinished syntax completed. No input makes it throw: nesting past a
 * sane depth is shown as text. Finished code blocks are highlighted lazily and get a language
 * label and a copy button. Remote images load only when clicked, or at once from `image-hosts`.
 *
 * @tagname pi-markdown
 * @summary Safe, incremental markdown.
 * @event pi-copy - Before a code block is copied; cancel it to copy yourself. {@link PiCopyEvent}
 * @csspart content - The wrapper of the rendered blocks.
 * @csspart code-block - Each fenced code block (`pre`).
 * @csspart code-header - The bar above a code block: language label and copy button.
 * @csspart copy-button - A code block's copy button.
 * @csspart remote-image - An image of the text: a click-to-load placeholder, then the image.
 * @cssproperty [--pi-color-code-bg=#f4f5f7] - Background of code.
 */
export class PiMarkdown extends LitElement {
  static override styles = [tokenStyles, baseStyles, markdownContentStyles, syntaxStyles];
  static override properties = {
    text: { type: String },
    streaming: { type: Boolean, reflect: true },
    strings: { attribute: false },
    imageHosts: {
      attribute: "image-hosts",
      converter: {
        fromAttribute: (value: string | null) => value?.split(/[\s,]+/).filter(Boolean) ?? [],
        toAttribute: (value: readonly string[]) => value.join(" "),
      },
    },
  };

  /** The markdown source. */
  declare text: string;
  /** True while the text is still growing: the last block is treated as unfinished. */
  declare streaming: boolean;
  /** UI strings (copy buttons, image placeholders). */
  declare strings: PiStrings;
  /**
   * Hosts whose images load without a click (`images.example.com`, or `*.example.com` for its
   * subdomains); attribute: space-separated. Empty by default: every remote image waits for a click.
   */
  declare imageHosts: readonly string[];

  readonly #blocks = new MarkdownBlocks();
  /** The finished blocks in groups of {@link GROUP} (all full but the last). */
  readonly #groups: string[][] = [];
  /** Blocks of the content whose images and code were already looked at. */
  #seen = 0;

  constructor() {
    super();
    this.text = "";
    this.streaming = false;
    this.strings = en;
    this.imageHosts = [];
    this.addEventListener("click", this.#onClick);
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // Until the parser is there, text shows as it is; then everything renders again.
    if (markdownTemplates() === undefined)
      loadMarkdown().then(
        () => {
          // Every block is rendered anew: look at its images and code again.
          this.#seen = 0;
          this.requestUpdate();
        },
        () => undefined,
      );
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    const templates = markdownTemplates();
    if (templates !== undefined) adoptPartStyles(this, [templates.markdownTemplateStyles]);
    if (changed.has("text")) this.#group(this.#blocks.update(this.text));
    if (changed.has("imageHosts") || changed.has("strings")) this.#seen = 0;
    if (this.streaming) void loadCompletion().catch(() => undefined);
  }

  protected override render(): unknown {
    const tail = this.#blocks.tail;
    const s = this.strings;
    const templates = markdownTemplates();
    const parsed = templates !== undefined;
    const block = (source: string): unknown =>
      templates === undefined ? plainMarkdown(source) : templates.renderFinishedBlock(source, s);
    // The tail keeps its element when streaming ends, so nothing is rebuilt at the end.
    return html`<div class="md" part="content">${this.#groups.map((group) =>
      // A full group never changes again: Lit skips it without looking at its blocks.
      guard([group, s, parsed], () =>
        group.map(
          (source) =>
            html`<div class=${blockClass(source)} data-done>${guard([source, s, parsed], () => block(source))}</div>`,
        ),
      ),
    )}${
      tail.trim() === ""
        ? null
        : html`<div class=${blockClass(tail)} ?data-done=${!this.streaming}>${
            this.streaming
              ? (templates?.renderSource(tail, s, true) ?? plainMarkdown(tail))
              : guard([tail, s, parsed], () => block(tail))
          }</div>`
    }</div>`;
  }

  protected override updated(): void {
    // Only blocks added since the last update (and the tail, which changes) need a look.
    const blocks = this.renderRoot.querySelector(".md")?.children ?? [];
    const finished = this.#blocks.finished.length;
    for (let i = Math.min(this.#seen, finished); i < blocks.length; i++) {
      const block = blocks[i] as HTMLElement;
      if (block.querySelector("[data-src]") !== null) {
        // Loaded on the first image: most messages have none.
        const { imageHosts, strings } = this;
        void import("../../internal/markdown/remote-images.ts").then(({ fillImages }) =>
          fillImages(block, imageHosts, (host) => format(strings.loadImage, { host })),
        );
      }
      if (block.dataset.done !== undefined) highlightLater(block);
    }
    this.#seen = finished;
  }

  #group(reset: boolean): void {
    const groups = this.#groups;
    if (reset) {
      groups.length = 0;
      this.#seen = 0;
    }
    const finished = this.#blocks.finished;
    let count = (groups.length - 1) * GROUP + (groups.at(-1)?.length ?? GROUP);
    for (; count < finished.length; count++) {
      const last = groups.at(-1);
      // A new array for a changed group, so its guard sees the change.
      if (last === undefined || last.length === GROUP) groups.push([finished[count] as string]);
      else groups[groups.length - 1] = [...last, finished[count] as string];
    }
  }

  #onClick = (event: Event): void => {
    const button = event
      .composedPath()
      .find(
        (node): node is HTMLElement => node instanceof HTMLElement && node.dataset.copy === "code",
      );
    const code = button?.closest(".code")?.querySelector("code");
    if (button !== undefined && code) copyFromButton(button, code.textContent ?? "", "code");
  };
}

declare global {
  interface HTMLElementTagNameMap {
    "pi-markdown": PiMarkdown;
  }
}
