import type { FileSearch } from "@pi-kit/client";
import type { ImageContent } from "@pi-kit/protocol";
import { html, LitElement, nothing } from "lit";
import type { SendMode } from "../../internal/events.ts";
import { imageUrl } from "../../internal/i18n/format.ts";
import { en, format, type PiStrings } from "../../internal/i18n/i18n.ts";
import { baseStyles } from "../../styles/shared.ts";
import { tokenStyles } from "../../styles/tokens.ts";
import type { PiSlashMenu } from "../slash-menu/pi-slash-menu.ts";
import { composerStyles } from "./pi-composer.styles.ts";

/** A pointer press on a send button must not take the focus out of the text field. */
const keepFocus = (event: PointerEvent): void => event.preventDefault();

/** What the composer hands to its chat (an internal event; the chat fires the public `pi-send`). */
export class ComposerSubmitEvent extends Event {
  readonly text: string;
  readonly images: readonly ImageContent[];
  readonly mode: SendMode;

  constructor(text: string, images: readonly ImageContent[], mode: SendMode) {
    super("composer-submit");
    this.text = text;
    this.images = images;
    this.mode = mode;
  }
}

interface Attachment extends ImageContent {
  readonly name: string;
}

/**
 * The message editor: multi-line, Enter sends, Shift+Enter breaks the line, IME composition is
 * never interrupted. While the agent runs, Enter queues a follow-up and Ctrl/⌘+Enter steers.
 * Images can be pasted, dropped or picked. Typing `/` at the start opens a `<pi-slash-menu>` of
 * pi's commands above the text field; while it is open ↑ ↓, Enter / Tab and Escape go to the menu,
 * never to sending or stopping. With a `fileSearch`, typing `@` opens a `<pi-mention-menu>` of the
 * workspace's files (loaded then, not before). Fires internal `composer-submit`, `composer-abort` and
 * `composer-restore` events for `<pi-chat>`.
 *
 * @tagname pi-composer
 * @summary Message composer.
 * @csspart composer - The form.
 * @csspart input - The textarea.
 * @csspart attachments - The list of attached images.
 * @csspart send-button - Send (prompt or follow-up).
 * @csspart steer-button - Steer (while running).
 * @csspart stop-button - Stop (while running).
 * @csspart attach-button - Opens the image picker.
 * @csspart slash-menu - The slash-command popup (its `listbox`).
 * @csspart mention-menu - The `@` file popup (its `listbox`).
 */
export class PiComposer extends LitElement {
  static override styles = [tokenStyles, baseStyles, composerStyles];
  static override properties = {
    running: { type: Boolean },
    strings: { attribute: false },
    disabled: { type: Boolean },
    reason: { type: String },
    fileSearch: { attribute: false },
    attachments: { state: true },
    dragging: { state: true },
  };

  /** True while the agent streams: sending queues instead of prompting. */
  declare running: boolean;
  /** UI strings. */
  declare strings: PiStrings;
  /** Disables sending (the text stays editable, nothing is cleared). */
  declare disabled: boolean;
  /** Why sending is disabled, shown as the placeholder and on the send button. */
  declare reason: string | undefined;
  /** Where `@` mentions search the workspace's files; without it `@` is plain text. */
  declare fileSearch: FileSearch | undefined;
  /** @internal */
  declare attachments: readonly Attachment[];
  #mentions: Promise<void> | undefined;
  /** @internal */
  declare dragging: boolean;

  constructor() {
    super();
    this.running = false;
    this.strings = en;
    this.disabled = false;
    this.attachments = [];
    this.dragging = false;
  }

  /** The textarea. */
  get input(): HTMLTextAreaElement | null {
    return this.renderRoot.querySelector("textarea");
  }

  /** The current text. */
  get value(): string {
    return this.input?.value ?? "";
  }

  /** Replaces the text (as `set_editor_text` does) and puts the caret at the end. */
  setText(text: string): void {
    const input = this.input;
    if (input === null) return;
    input.value = text;
    input.setSelectionRange(text.length, text.length);
    this.#autosize();
  }

  /**
   * Gives back text that could not be sent (and its images): put before what is typed now,
   * separated by blank lines, with the caret at the end.
   */
  restore(texts: readonly string[], images: readonly ImageContent[] = []): void {
    this.setText([...texts, this.value].filter((t) => t !== "").join("\n\n"));
    if (images.length > 0) {
      const back = images.map((image, i) => ({ ...image, name: `${i + 1}` }));
      this.attachments = [...back, ...this.attachments];
    }
    this.focus();
  }

  /** The slash-command menu. */
  get slashMenu(): PiSlashMenu | null {
    return this.renderRoot.querySelector("pi-slash-menu");
  }

  /** Moves focus into the textarea. */
  override focus(): void {
    this.input?.focus();
  }

  protected override render(): unknown {
    const s = this.strings;
    // Why the buttons are off, on each of them (a watcher cannot stop or steer either).
    const why = (this.disabled && this.reason) || nothing;
    return html`<div
      part="composer"
      class=${this.dragging ? "composer dragging" : "composer"}
      @dragover=${this.#onDragOver}
      @dragleave=${() => {
        this.dragging = false;
      }}
      @drop=${this.#onDrop}
    >
      <pi-slash-menu exportparts="listbox:slash-menu" .strings=${s}></pi-slash-menu>
      ${
        this.attachments.length
          ? html`<ul part="attachments" class="attachments" aria-label=${s.attachments}>
            ${this.attachments.map(
              (a, i) => html`<li>
                <img src=${imageUrl(a) ?? ""} alt=${a.name} />
                <button class="remove" aria-label=${format(s.removeImage, { name: a.name })} @click=${() => this.#remove(i)}>×</button>
              </li>`,
            )}
          </ul>`
          : nothing
      }
      <textarea
        part="input"
        rows="1"
        aria-label=${s.composerLabel}
        aria-describedby="help"
        placeholder=${this.disabled && this.reason ? this.reason : this.running ? s.placeholderRunning : s.placeholder}
        @keydown=${this.#onKeyDown}
        @input=${this.#onInput}
        @paste=${this.#onPaste}
      ></textarea>
      <span id="help" class="sr-only">${this.disabled && this.reason ? `${this.reason}. ` : ""}${s.keyboardHelp}</span>
      <div class="actions">
        <input id="file" type="file" accept="image/*" multiple hidden @change=${this.#onPick} />
        <button part="attach-button" aria-label=${s.attachImage} title=${s.attachImage} @click=${() => this.renderRoot.querySelector<HTMLInputElement>("#file")?.click()}>+</button>
        <span class="spacer"></span>
        ${
          this.running
            ? html`<button part="stop-button" class="danger" ?disabled=${this.disabled} title=${why} @click=${() => this.dispatchEvent(new Event("composer-abort"))}>${s.stop}</button>
              <button part="steer-button" ?disabled=${this.disabled} title=${why} @pointerdown=${keepFocus} @click=${() => this.#send("steer")}>${s.steer}</button>
              <button part="send-button" class="primary" ?disabled=${this.disabled} title=${why} @pointerdown=${keepFocus} @click=${() => this.#send("followUp")}>${s.followUp}</button>`
            : html`<button part="send-button" class="primary" ?disabled=${this.disabled} title=${why} @pointerdown=${keepFocus} @click=${() => this.#send("prompt")}>${s.send}</button>`
        }
      </div>
    </div>`;
  }

  protected override firstUpdated(): void {
    // The menu follows the textarea itself (and takes its keys first), once both exist.
    const menu = this.slashMenu;
    if (menu !== null) menu.input = this.input ?? undefined;
  }

  /** Sends what is typed (no-op when empty). `mode` defaults to prompt, or follow-up while running. */
  submit(mode?: SendMode): void {
    const text = this.value;
    if (this.disabled || (text.trim() === "" && this.attachments.length === 0)) return;
    const chosen = mode ?? (this.running ? "followUp" : "prompt");
    const images = this.attachments.map(({ type, data, mimeType }) => ({ type, data, mimeType }));
    this.dispatchEvent(new ComposerSubmitEvent(text, images, this.running ? chosen : "prompt"));
    this.setText("");
    this.attachments = [];
  }

  // After sending with a button, the next thing to do is type: the text field keeps the focus.
  #send(mode: SendMode): void {
    this.submit(mode);
    this.focus();
  }

  #onKeyDown(event: KeyboardEvent): void {
    // Enter that confirms an IME candidate must not send (keyCode 229 covers older Safari).
    if (event.isComposing || event.keyCode === 229) return;
    if (event.key === "Enter" && !event.shiftKey && !event.altKey) {
      event.preventDefault();
      this.submit(event.ctrlKey || event.metaKey ? "steer" : undefined);
    } else if (event.key === "Escape" && this.running && !this.disabled) {
      event.preventDefault();
      this.dispatchEvent(new Event("composer-abort"));
    } else if (event.key === "ArrowUp" && event.altKey) {
      event.preventDefault();
      this.dispatchEvent(new Event("composer-restore"));
    }
  }

  #onInput(): void {
    this.#autosize();
    const input = this.input as HTMLTextAreaElement;
    // The `@` menu loads when the first `@` is typed, then follows the text by itself.
    if (
      this.fileSearch &&
      !this.#mentions &&
      /(^|\s)@\S*$/.test(input.value.slice(0, input.selectionStart))
    )
      this.#mentions = import("../mention-menu/pi-mention-menu.ts").then((menu) =>
        menu.mountMentionMenu(this, input, {
          html,
          nothing,
          format,
          slashMenu: this.slashMenu?.constructor as never,
        }),
      );
  }

  #autosize(): void {
    const input = this.input;
    if (input === null) return;
    input.style.height = "auto";
    // Capped by the CSS max-height (shorter on short screens); past it, the text scrolls.
    input.style.height = `${input.scrollHeight}px`;
  }

  #onPaste(event: ClipboardEvent): void {
    const files = [...(event.clipboardData?.files ?? [])].filter((f) =>
      f.type.startsWith("image/"),
    );
    if (files.length === 0) return;
    event.preventDefault();
    void this.addImages(files);
  }

  #onDragOver(event: DragEvent): void {
    if (![...(event.dataTransfer?.types ?? [])].includes("Files")) return;
    event.preventDefault();
    this.dragging = true;
  }

  #onDrop(event: DragEvent): void {
    this.dragging = false;
    const files = [...(event.dataTransfer?.files ?? [])].filter((f) => f.type.startsWith("image/"));
    if (files.length === 0) return;
    event.preventDefault();
    void this.addImages(files);
  }

  #onPick(event: Event): void {
    const input = event.target as HTMLInputElement;
    void this.addImages([...(input.files ?? [])]);
    input.value = "";
  }

  /** Attaches image files (others are ignored). */
  async addImages(files: readonly File[]): Promise<void> {
    const added = await Promise.all(
      files
        .filter((f) => f.type.startsWith("image/"))
        .map(async (file): Promise<Attachment> => {
          const bytes = new Uint8Array(await file.arrayBuffer());
          let binary = "";
          for (let i = 0; i < bytes.length; i += 0x8000)
            binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
          return { type: "image", data: btoa(binary), mimeType: file.type, name: file.name };
        }),
    );
    this.attachments = [...this.attachments, ...added];
  }

  #remove(index: number): void {
    this.attachments = this.attachments.filter((_, i) => i !== index);
    this.focus();
  }
}

declare global {
  interface HTMLElementTagNameMap {
    "pi-composer": PiComposer;
  }
}
