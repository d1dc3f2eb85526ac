/**
 * The files of a composer that are not images: each is uploaded as soon as it is attached (to the
 * composer's `uploads`, a bridge's upload API), shown as a chip with its name, size and progress,
 * and named in the message as `@path` once stored, as pi's TUI writes a mention. A failed upload
 * stays, with the reason, Retry and Remove; removing one in progress aborts it. Without `uploads`
 * such files are refused with a message (an `attach-notice`). Loaded when the
 * first such file is attached, and it imports nothing the chat page's entry has: the composer
 * hands it what they share (Lit's templates, `format`) through {@link UploadTrayKit}, so loading
 * it lazily leaves the entry's chunks as they are.
 * @module
 */
import type { UploadQuota, Uploads } from "@pi-kit/client";
import type { html, nothing } from "lit";
import type { format } from "../../../internal/i18n/format.ts";
import { mentionText } from "../../mention-menu/mention-text.ts";
import { type PiUploadStrings, uploadStringsFor } from "./upload-strings.ts";
import { uploadTrayCss } from "./upload-tray.styles.ts";

/** What the composer hands the tray: what it shares with the rest of the page. */
export interface UploadTrayKit {
  readonly html: typeof html;
  readonly nothing: typeof nothing;
  readonly format: typeof format;
  /** The composer's language, now. */
  readonly lang: () => string;
}

/** The composer the tray belongs to. */
export interface UploadTrayHost {
  /** Where files go; read at each upload. */
  readonly uploads: Uploads | undefined;
  /** Overrides of the tray's strings (a chat's `strings`). */
  readonly strings: object;
  readonly renderRoot: HTMLElement | DocumentFragment;
  requestUpdate(): void;
  focus(): void;
}

type Phase = "uploading" | "ready" | "failed";

interface Item {
  readonly file: File;
  /** Where it goes: the composer's `uploads` when it was attached (another session's are dropped). */
  readonly to: Uploads;
  phase: Phase;
  received: number;
  path?: string;
  reason?: string;
  abort?: AbortController;
  /** Within the limit of files per message (checked in the order the files came). */
  counted?: boolean;
}

/** A composer's uploads: what it shows, whether sending waits, and what the message names. */
export interface UploadTray {
  /** Attaches files (images apart: the composer keeps those inline), or refuses them without `uploads`. */
  add(files: readonly File[]): void;
  /** Why sending waits (uploads in progress), or `undefined`. */
  readonly waiting: string | undefined;
  /**
   * The message to send: `text` and the mentions (`@path`, as pi's TUI writes them) of the stored
   * files, which leave the tray; failed ones stay.
   */
  take(text: string): string;
  /** The chips. */
  render(): unknown;
}

/** Makes the tray of `host` and gives its shadow root the tray's styles. */
export function createUploadTray(host: UploadTrayHost, kit: UploadTrayKit): UploadTray {
  const root = host.renderRoot;
  if (root instanceof ShadowRoot) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(uploadTrayCss);
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  }
  return new Tray(host, kit);
}

class Tray implements UploadTray {
  readonly #host: UploadTrayHost;
  readonly #kit: UploadTrayKit;
  #items: Item[] = [];
  #quota: { of: Uploads; quota: Promise<UploadQuota | undefined> } | undefined;
  /** What the live region says last: a file stored or failed. */
  #said = "";
  /** Why files were not attached (no `uploads`). */
  #notice = "";

  constructor(host: UploadTrayHost, kit: UploadTrayKit) {
    this.#host = host;
    this.#kit = kit;
  }

  get waiting(): string | undefined {
    return this.#live().some((i) => i.phase === "uploading")
      ? this.#strings().uploadWaiting
      : undefined;
  }

  add(files: readonly File[]): void {
    const to = this.#host.uploads;
    const names = files.map((f) => f.name).join(", ");
    this.#notice = to ? "" : this.#kit.format(this.#strings().filesRefused, { names });
    if (to)
      for (const file of files) {
        const item: Item = { file, to, phase: "uploading", received: 0 };
        this.#items.push(item);
        void this.#start(item);
      }
    this.#host.requestUpdate();
  }

  take(text: string): string {
    this.#notice = "";
    this.#host.requestUpdate();
    const ready = this.#live().filter((i) => i.phase === "ready");
    if (ready.length === 0) return text;
    this.#items = this.#items.filter((i) => i.phase !== "ready");
    // After what is typed, as mentions typed at its end would be.
    const mentions = ready.map((i) => mentionText({ kind: "file", path: i.path ?? "" }));
    return [text.trimEnd(), ...mentions].filter((t) => t !== "").join(" ");
  }

  render(): unknown {
    const { html, nothing, format } = this.#kit;
    const s = this.#strings();
    const lang = this.#kit.lang();
    return html`<span class="sr-only" role="status">${this.#said}</span>${
      this.#notice
        ? html`<p part="attach-notice" class="notice" role="status">${this.#notice}</p>`
        : nothing
    }${
      this.#live().length === 0
        ? nothing
        : html`<ul part="uploads" class="uploads" aria-label=${s.uploadsLabel}>
        ${this.#items.map((item) => {
          const name = item.file.name;
          const size = bytes(item.file.size, lang);
          return html`<li part="upload" class="upload ${item.phase}" data-phase=${item.phase}>
            <span part="upload-name" class="name" title=${name}>${name}</span>
            <span class="line">
              ${
                item.phase === "uploading"
                  ? html`<progress part="upload-progress" max=${Math.max(item.file.size, 1)} .value=${item.received} aria-label=${format(s.uploadProgress, { name })}></progress>`
                  : item.phase === "ready"
                    ? html`<span part="upload-status" class="status">${s.uploadReady}</span>`
                    : html`<span part="upload-status" class="status reason">${item.reason}</span>`
              }
              <span part="upload-size" class="size">${
                item.phase === "uploading"
                  ? format(s.uploadReceived, { received: bytes(item.received, lang), size })
                  : size
              }</span>
            </span>
            <span class="buttons">
              ${
                item.phase === "failed"
                  ? html`<button type="button" part="upload-retry" aria-label=${format(s.uploadRetry, { name })} @click=${() => this.#retry(item)}>↻</button>`
                  : nothing
              }
              <button type="button" part="upload-remove" aria-label=${format(s.uploadRemove, { name })} @click=${() => this.#remove(item)}>×</button>
            </span>
          </li>`;
        })}
      </ul>`
    }`;
  }

  /**
   * The files of the composer's `uploads` now: those attached for another (the chat moved to
   * another session) are dropped, their uploads aborted, and never named in its prompts.
   */
  #live(): Item[] {
    const now = this.#host.uploads;
    for (const item of this.#items) if (item.to !== now) item.abort?.abort();
    this.#items = this.#items.filter((i) => i.to === now);
    return this.#items;
  }

  async #start(item: Item): Promise<void> {
    const uploads = item.to;
    const abort = new AbortController();
    item.abort = abort;
    item.phase = "uploading";
    item.received = 0;
    item.reason = undefined;
    item.counted = false;
    try {
      const quota = await this.#quotaOf(uploads);
      if (abort.signal.aborted) return;
      const limit = quota?.limits;
      if (limit !== undefined) {
        if (item.file.size > limit.maxFileBytes)
          throw coded("upload_too_large", limit.maxFileBytes);
        const others = this.#items.filter((i) => i.counted && i.phase !== "failed").length;
        if (others >= limit.maxFilesPerMessage)
          throw coded("too_many_uploads", limit.maxFilesPerMessage);
      }
      item.counted = true;
      const status = await uploads.upload(item.file, {
        signal: abort.signal,
        onProgress: (received) => {
          if (abort.signal.aborted) return;
          item.received = received;
          this.#host.requestUpdate();
        },
      });
      if (abort.signal.aborted) return;
      item.phase = "ready";
      item.path = status.path;
      item.received = status.size;
      this.#said = this.#kit.format(this.#strings().uploadDone, { name: item.file.name });
    } catch (error) {
      if (abort.signal.aborted) return;
      item.counted = false;
      item.phase = "failed";
      item.reason = this.#reason(error, await this.#quotaOf(uploads));
      this.#said = this.#kit.format(this.#strings().uploadFailedNamed, {
        name: item.file.name,
        reason: item.reason,
      });
    }
    this.#host.requestUpdate();
  }

  /** The limits, asked once (a failure is no limit here: the bridge still enforces its own). */
  #quotaOf(uploads: Uploads): Promise<UploadQuota | undefined> {
    if (this.#quota?.of !== uploads)
      this.#quota = { of: uploads, quota: uploads.quota().catch(() => undefined) };
    return this.#quota.quota;
  }

  /** The person's words for why an upload failed: the limits by their typed codes, else the message. */
  #reason(error: unknown, quota: UploadQuota | undefined): string {
    const s = this.#strings();
    const { format } = this.#kit;
    const lang = this.#kit.lang();
    const { hostCode, limit } = (error ?? {}) as { hostCode?: unknown; limit?: number };
    const limits = quota?.limits;
    switch (hostCode) {
      case "upload_too_large":
        return format(s.uploadTooLarge, { limit: bytes(limit ?? limits?.maxFileBytes ?? 0, lang) });
      case "upload_quota_exceeded":
        return format(s.uploadQuotaExceeded, { limit: bytes(limits?.maxSessionBytes ?? 0, lang) });
      case "too_many_uploads":
        return format(s.uploadTooMany, { count: limit ?? limits?.maxFilesPerMessage ?? 0 });
      case "not_controller":
        return s.uploadNotController;
      case "uploads_off":
        return s.uploadsOff;
    }
    return error instanceof Error ? error.message : String(error);
  }

  #retry(item: Item): void {
    void this.#start(item);
    this.#host.requestUpdate();
    // The button goes with the failure: the text field takes the focus, as after Remove.
    this.#host.focus();
  }

  #remove(item: Item): void {
    item.abort?.abort();
    this.#items = this.#items.filter((i) => i !== item);
    this.#host.requestUpdate();
    this.#host.focus();
  }

  #strings(): PiUploadStrings {
    return {
      ...uploadStringsFor(this.#kit.lang()),
      ...(this.#host.strings as Partial<PiUploadStrings>),
    };
  }
}

/** A limit the tray found itself, with the same code the bridge would answer. */
function coded(hostCode: string, limit: number): Error & { hostCode: string; limit: number } {
  return Object.assign(new Error(hostCode), { hostCode, limit });
}

/** `bytes` for people, in their language: `512 byte`, `12 kB`, `3.4 MB`. */
export function bytes(count: number, lang: string): string {
  const units = ["byte", "kilobyte", "megabyte", "gigabyte"] as const;
  let value = count;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return new Intl.NumberFormat(lang, {
    style: "unit",
    unit: units[unit],
    unitDisplay: unit === 0 ? "long" : "short",
    maximumFractionDigits: value < 10 && unit > 0 ? 1 : 0,
  }).format(value);
}
