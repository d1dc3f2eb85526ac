import type { FileSearch, Uploads } from "@pi-kit/client";
import type { ImageContent } from "@pi-kit/protocol";
import { html, LitElement, nothing } from "lit";
import { ComposerSubmitEvent } from "../../events/composer-submit.ts";
import type { SendMode } from "../../events/pi-send.ts";
import { format, imageUrl } from "../../internal/i18n/format.ts";
import { type PiStrings, resolveLang } from "../../internal/i18n/i18n.ts";
import { en } from "../../internal/i18n/locales/en.ts";
import { LazyPart } from "../../internal/lazy-part.ts";
import { baseStyles } from "../../styles/shared.ts";
import { tokenStyles } from "../../styles/tokens.ts";
import type { PiSlashMenu } from "../slash-menu/pi-slash-menu.ts";
import { composerStyles } from "./pi-composer.styles.ts";
import type { UploadTray } from "./uploads/upload-tray.ts";

/** The uploads' code, loaded with the first file that is not an image. */
const trayPart = new LazyPart(() => import("./uploads/upload-tray.ts"));

/** A pointer press on a send button must not take the focus out of the text field. */
const keepFocus = (event: PointerEvent): void => event.preventDefault();

interface Attachment extends ImageContent {
  readonly name: string;
}

/**
 * The message editor: multi-line, Enter sends, Shift+Enter breaks the line, IME composition is
 * never interrupted. While the agent runs, Enter queues a follow-up and Ctrl/⌘+Enter steers.
 * Images can be pasted, dropped or picked. Typing `/` at the start opens a `<pi-slash-menu>` of
 * pi's commands above the text field; while it is open ↑ ↓, Enter / Tab and Escape go to the menu,
 * never to sending or stopping. With a `fileSearch`, typing `@` opens a `<pi-mention-menu>` of the
 * workspace's files (loaded then, not before). With `uploads`, files of any other kind are uploaded
 * as soon as they are attached (the code that shows them loads then), each shown with its name,
 * size and progress, and named in the message as `@path` once stored; sending waits while one is
 * uploading, and a failed one stays with its reason, Retry and Remove. Without `uploads`, such files
 * are refused with a message. Fires internal `composer-submit`, `composer-abort` and
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
 * @csspart attach-button - Opens the file picker (images only without `uploads`).
 * @csspart attach-notice - Why files were not attached (not images, and no `uploads`).
 * @csspart uploads - The list of uploaded files.
 * @csspart upload - One uploaded file (`data-phase`: `uploading`, `ready` or `failed`).
 * @csspart upload-name - Its name.
 * @csspart upload-size - Its size (and how much is uploaded, while uploading).
 * @csspart upload-progress - Its progress bar, while uploading.
 * @csspart upload-status - "Ready", or why it failed.
 * @csspart upload-retry - Uploads a failed file again.
 * @csspart upload-remove - Removes it (aborting its upload).
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
    uploads: { attribute: false },
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
  /** Where files that are not images are uploaded (a `BridgeUploads`); unset: images only. */
  declare uploads: Uploads | undefined;
  #tray: UploadTray | undefined;
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
    // Sending waits for the uploads in progress (stopping does not).
    const held = this.#tray?.waiting;
    const off = this.disabled || !!held;
    const attach = this.uploads ? s.attachFiles : s.attachImage;
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
      ${this.#tray?.render() ?? nothing}
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
      <span id="help" class="sr-only">${this.disabled && this.reason ? `${this.reason}. ` : ""}${held ? `${held}. ` : ""}${s.keyboardHelp}</span>
      <div class="actions">
        <input id="file" type="file" accept=${this.uploads ? nothing : "image/*"} multiple hidden @change=${this.#onPick} />
        <button part="attach-button" aria-label=${attach} title=${attach} @click=${() => this.renderRoot.querySelector<HTMLInputElement>("#file")?.click()}>+</button>
        <span class="spacer"></span>
        ${
          this.running
            ? html`<button part="stop-button" class="danger" ?disabled=${this.disabled} title=${why} @click=${() => this.dispatchEvent(new Event("composer-abort"))}>${s.stop}</button>
              <button part="steer-button" ?disabled=${off} title=${held || why} @pointerdown=${keepFocus} @click=${() => this.#send("steer")}>${s.steer}</button>
              <button part="send-button" class="primary" ?disabled=${off} title=${held || why} @pointerdown=${keepFocus} @click=${() => this.#send("followUp")}>${s.followUp}</button>`
            : html`<button part="send-button" class="primary" ?disabled=${off} title=${held || why} @pointerdown=${keepFocus} @click=${() => this.#send("prompt")}>${s.send}</button>`
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
    if (this.disabled || this.#tray?.waiting) return;
    const text = this.#tray?.take(this.value) ?? this.value;
    if (text.trim() === "" && this.attachments.length === 0) return;
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
    if (this.addFiles([...(event.clipboardData?.files ?? [])])) event.preventDefault();
  }

  #onDragOver(event: DragEvent): void {
    if (![...(event.dataTransfer?.types ?? [])].includes("Files")) return;
    event.preventDefault();
    this.dragging = true;
  }

  #onDrop(event: DragEvent): void {
    this.dragging = false;
    const files = [...(event.dataTransfer?.files ?? [])];
    if (files.length === 0) return;
    // A file dropped here never opens in the tab, even one that is refused.
    event.preventDefault();
    this.addFiles(files);
  }

  #onPick(event: Event): void {
    const input = event.target as HTMLInputElement;
    this.addFiles([...(input.files ?? [])]);
    input.value = "";
  }

  /**
   * Attaches files: images inline, others uploaded (with `uploads`; the code for them loads with
   * the first) or refused with a message. True when any was taken.
   */
  addFiles(files: readonly File[]): boolean {
    const images = files.filter((f) => f.type.startsWith("image/"));
    const others = files.filter((f) => !images.includes(f));
    if (images.length) void this.addImages(images);
    if (others.length)
      void trayPart.load().then((module) => {
        this.#tray ??= module?.createUploadTray(this, {
          html,
          nothing,
          format,
          lang: () => resolveLang(this),
        });
        this.#tray?.add(others);
      });
    return images.length > 0 || (others.length > 0 && !!this.uploads);
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
