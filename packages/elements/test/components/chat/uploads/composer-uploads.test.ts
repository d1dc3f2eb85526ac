import { expect, fixture, html, oneEvent, waitUntil } from "@open-wc/testing";
import type { UploadOptions, UploadSource, Uploads } from "@pi-kit/client";
import type { UploadQuota, UploadStatus } from "@pi-kit/protocol/bridge";
import "../../../../src/define.ts";
import type { ComposerSubmitEvent } from "../../../../src/events/composer-submit.ts";
import type { PiChat, PiComposer, PiSendEvent } from "../../../../src/index.ts";
import { fakeClient, settle } from "../../../support/helpers.ts";

/** One upload the test drives: its progress, its end. */
interface Pending {
  readonly file: UploadSource;
  readonly options: UploadOptions;
  progress(received: number): void;
  finish(path?: string): void;
  fail(error: Error): void;
}

/** An `Uploads` whose uploads end when the test says, and whose limits the test sets. */
function fakeUploads(limits: Partial<UploadQuota["limits"]> = {}): Uploads & {
  pending: Pending[];
  quotaCalls: number;
} {
  const pending: Pending[] = [];
  const fake = {
    pending,
    quotaCalls: 0,
    async quota(): Promise<UploadQuota> {
      fake.quotaCalls++;
      return {
        limits: { maxFileBytes: 1e9, maxFilesPerMessage: 10, maxSessionBytes: 1e10, ...limits },
        usedBytes: 0,
      };
    },
    upload(file: UploadSource, options: UploadOptions = {}): Promise<UploadStatus> {
      return new Promise((resolve, reject) => {
        const status = (path: string, received: number): UploadStatus => ({
          id: "ab12",
          name: file.name,
          path,
          size: file.size,
          received,
          complete: received === file.size,
        });
        pending.push({
          file,
          options,
          progress: (received) => options.onProgress?.(received, file.size),
          finish: (path = `.pi-kit/uploads/ab12/${file.name}`) => resolve(status(path, file.size)),
          fail: reject,
        });
        options.signal?.addEventListener("abort", () =>
          reject(Object.assign(new Error("cancelled"), { hostCode: "cancelled" })),
        );
      });
    },
  };
  return fake;
}

/** A bridge error as `SessionHistoryError` carries it: a message and a typed code. */
const hostError = (hostCode: string, message: string): Error =>
  Object.assign(new Error(message), { hostCode });

const pdf = (name = "report.pdf", size = 2_500_000): File =>
  new File([new Uint8Array(size)], name, { type: "application/pdf" });
const png = (): File => {
  const bytes = Uint8Array.from(
    atob(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
    ),
    (c) => c.charCodeAt(0),
  );
  return new File([bytes], "dot.png", { type: "image/png" });
};

async function composer(
  uploads?: Uploads,
): Promise<{ el: PiComposer; sent: ComposerSubmitEvent[] }> {
  const el = await fixture<PiComposer>(html`<pi-composer .uploads=${uploads}></pi-composer>`);
  const sent: ComposerSubmitEvent[] = [];
  el.addEventListener("composer-submit", (e) => sent.push(e as ComposerSubmitEvent));
  return { el, sent };
}

const q = <T extends Element>(el: PiComposer, selector: string): T | null =>
  el.shadowRoot?.querySelector<T>(selector) ?? null;
const chips = (el: PiComposer): HTMLElement[] => [
  ...(el.shadowRoot?.querySelectorAll<HTMLElement>('[part="upload"]') ?? []),
];
const chipText = (chip: HTMLElement): string =>
  (chip.textContent ?? "").replace(/\s+/g, " ").trim();

/** Drops `files` on the composer, as a person dragging them from the desktop does. */
function drop(el: PiComposer, files: readonly File[]): DragEvent {
  const data = new DataTransfer();
  for (const file of files) data.items.add(file);
  const event = new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true });
  q(el, '[part="composer"]')?.dispatchEvent(event);
  return event;
}

/** Picks `files` in the composer's file picker. */
function pick(el: PiComposer, files: readonly File[]): void {
  const data = new DataTransfer();
  for (const file of files) data.items.add(file);
  const input = q<HTMLInputElement>(el, 'input[type="file"]') as HTMLInputElement;
  input.files = data.files;
  input.dispatchEvent(new Event("change"));
}

describe("<pi-composer> uploads", () => {
  it("shows a dropped file with its name, size and progress, and uploads it at once", async () => {
    const uploads = fakeUploads();
    const { el } = await composer(uploads);
    const event = drop(el, [pdf()]);
    expect(event.defaultPrevented).to.equal(true);
    await waitUntil(() => uploads.pending.length === 1, "the upload did not start");
    await el.updateComplete;
    const [chip] = chips(el);
    expect(chip?.dataset.phase).to.equal("uploading");
    expect(q(el, '[part="upload-name"]')?.textContent).to.equal("report.pdf");
    expect(q(el, '[part="upload-size"]')?.textContent).to.contain("2.5 MB");
    expect(q(el, '[part="uploads"]')?.getAttribute("aria-label")).to.equal("Files to send");
    uploads.pending[0]?.progress(1_000_000);
    await el.updateComplete;
    const bar = q<HTMLProgressElement>(el, '[part="upload-progress"]') as HTMLProgressElement;
    expect(bar.tagName).to.equal("PROGRESS");
    expect(bar.value).to.equal(1_000_000);
    expect(bar.max).to.equal(2_500_000);
    expect(bar.getAttribute("aria-label")).to.equal("Uploading report.pdf");
    expect(q(el, '[part="upload-size"]')?.textContent).to.equal("1 MB of 2.5 MB");
    expect(q(el, '[part="upload-remove"]')?.getAttribute("aria-label")).to.equal(
      "Remove report.pdf",
    );
    await expect(el).to.be.accessible();
  });

  it("accepts any file in the picker and names it 'Attach files' (images only without uploads)", async () => {
    const bare = await composer();
    expect(q(bare.el, 'input[type="file"]')?.getAttribute("accept")).to.equal("image/*");
    expect(q(bare.el, '[part="attach-button"]')?.getAttribute("aria-label")).to.equal(
      "Attach image",
    );
    const uploads = fakeUploads();
    const { el } = await composer(uploads);
    expect(q(el, 'input[type="file"]')?.hasAttribute("accept")).to.equal(false);
    expect(q(el, '[part="attach-button"]')?.getAttribute("aria-label")).to.equal("Attach files");
    pick(el, [pdf("notes.txt", 300)]);
    await waitUntil(() => uploads.pending.length === 1, "the picked file was not uploaded");
    expect(uploads.pending[0]?.file.name).to.equal("notes.txt");
  });

  it("uploads a pasted file instead of pasting its name", async () => {
    const uploads = fakeUploads();
    const { el } = await composer(uploads);
    const data = new DataTransfer();
    data.items.add(pdf("log.txt", 40));
    const event = new ClipboardEvent("paste", {
      clipboardData: data,
      bubbles: true,
      cancelable: true,
    });
    el.input?.dispatchEvent(event);
    expect(event.defaultPrevented).to.equal(true);
    await waitUntil(() => uploads.pending.length === 1, "the pasted file was not uploaded");
    expect(uploads.pending[0]?.file.name).to.equal("log.txt");
  });

  it("holds sending while a file uploads, then sends the text with each stored file as @path", async () => {
    const uploads = fakeUploads();
    const { el, sent } = await composer(uploads);
    drop(el, [pdf(), pdf("my notes.txt", 12)]);
    await waitUntil(() => uploads.pending.length === 2);
    el.setText("summarise these");
    await el.updateComplete;
    const send = q<HTMLButtonElement>(el, '[part="send-button"]') as HTMLButtonElement;
    expect(send.disabled).to.equal(true);
    expect(send.title).to.equal("Waiting for uploads…");
    el.submit();
    expect(sent).to.have.length(0);
    expect(el.value).to.equal("summarise these");
    uploads.pending[0]?.finish();
    await waitUntil(() => chips(el)[0]?.dataset.phase === "ready");
    expect(send.disabled, "one is still uploading").to.equal(true);
    uploads.pending[1]?.finish(".pi-kit/uploads/cd34/my notes.txt");
    await waitUntil(() => !send.disabled, "sending stayed held");
    expect(chipText(chips(el)[0] as HTMLElement)).to.contain("Ready");
    send.click();
    expect(sent.map((e) => e.text)).to.deep.equal([
      'summarise these @.pi-kit/uploads/ab12/report.pdf @".pi-kit/uploads/cd34/my notes.txt"',
    ]);
    await el.updateComplete;
    expect(chips(el)).to.have.length(0);
  });

  it("puts @path in the text of <pi-chat>'s pi-send", async () => {
    const uploads = fakeUploads();
    const { client } = fakeClient();
    const chat = await fixture<PiChat>(
      html`<pi-chat style="height: 400px" .client=${client} .uploads=${uploads}></pi-chat>`,
    );
    await settle(chat);
    const el = chat.composer as PiComposer;
    drop(el, [pdf()]);
    await waitUntil(() => uploads.pending.length === 1);
    uploads.pending[0]?.finish();
    await waitUntil(() => chips(el)[0]?.dataset.phase === "ready");
    const sent = oneEvent(chat, "pi-send") as Promise<PiSendEvent>;
    el.submit();
    expect((await sent).text).to.equal("@.pi-kit/uploads/ab12/report.pdf");
  });

  it("keeps a failed upload with its reason; Retry uploads it again; sending leaves it", async () => {
    const uploads = fakeUploads({ maxFileBytes: 25_000_000 });
    const { el, sent } = await composer(uploads);
    drop(el, [pdf("a.zip", 10), pdf("b.log", 10)]);
    await waitUntil(() => uploads.pending.length === 2);
    uploads.pending[0]?.fail(hostError("upload_too_large", "upload too large"));
    uploads.pending[1]?.fail(new Error("The bridge is unreachable"));
    await waitUntil(() => chips(el).every((c) => c.dataset.phase === "failed"));
    const [first, second] = chips(el) as [HTMLElement, HTMLElement];
    expect(chipText(first)).to.contain("Larger than the 25 MB limit per file");
    expect(chipText(second)).to.contain("The bridge is unreachable");
    expect(q(el, '[role="status"]')?.textContent).to.equal(
      "b.log was not uploaded: The bridge is unreachable",
    );
    const retry = second.querySelector<HTMLButtonElement>('[part="upload-retry"]');
    expect(retry?.getAttribute("aria-label")).to.equal("Retry b.log");
    retry?.click();
    await waitUntil(() => uploads.pending.length === 3, "Retry did not upload again");
    uploads.pending[2]?.finish(".pi-kit/uploads/ef/b.log");
    await waitUntil(() => chips(el)[1]?.dataset.phase === "ready");
    el.setText("go");
    el.submit();
    expect(sent.map((e) => e.text)).to.deep.equal(["go @.pi-kit/uploads/ef/b.log"]);
    await el.updateComplete;
    expect(chips(el).map((c) => c.dataset.phase)).to.deep.equal(["failed"]);
    expect(chipText(chips(el)[0] as HTMLElement)).to.contain("a.zip");
  });

  it("aborts an upload in progress when it is removed", async () => {
    const uploads = fakeUploads();
    const { el, sent } = await composer(uploads);
    drop(el, [pdf()]);
    await waitUntil(() => uploads.pending.length === 1);
    await el.updateComplete;
    const signal = uploads.pending[0]?.options.signal as AbortSignal;
    expect(signal.aborted).to.equal(false);
    q<HTMLButtonElement>(el, '[part="upload-remove"]')?.click();
    expect(signal.aborted).to.equal(true);
    await el.updateComplete;
    expect(chips(el)).to.have.length(0);
    const send = q<HTMLButtonElement>(el, '[part="send-button"]') as HTMLButtonElement;
    expect(send.disabled, "a removed upload holds nothing").to.equal(false);
    el.setText("hi");
    el.submit();
    expect(sent.map((e) => e.text)).to.deep.equal(["hi"]);
  });

  it("drops another session's files when uploads changes: aborted, never in the prompt", async () => {
    const first = fakeUploads();
    const { el, sent } = await composer(first);
    drop(el, [pdf("old.txt", 5), pdf("done.txt", 5)]);
    await waitUntil(() => first.pending.length === 2);
    first.pending[1]?.finish();
    await waitUntil(() => chips(el)[1]?.dataset.phase === "ready");
    const signal = first.pending[0]?.options.signal as AbortSignal;
    const second = fakeUploads();
    el.uploads = second;
    await el.updateComplete;
    expect(chips(el)).to.have.length(0);
    expect(signal.aborted).to.equal(true);
    el.setText("next");
    el.submit();
    expect(sent.map((e) => e.text)).to.deep.equal(["next"]);
  });

  it("keeps images inline and uploads nothing for them", async () => {
    const uploads = fakeUploads();
    const { el, sent } = await composer(uploads);
    drop(el, [png()]);
    await waitUntil(() => q(el, ".attachments img") !== null, "the image was not attached");
    expect(uploads.pending).to.have.length(0);
    expect(uploads.quotaCalls).to.equal(0);
    expect(chips(el)).to.have.length(0);
    el.submit();
    expect(sent[0]?.images.map((i) => i.mimeType)).to.deep.equal(["image/png"]);
    expect(sent[0]?.text).to.equal("");
  });

  it("refuses files that are not images, visibly, without uploads", async () => {
    const { el } = await composer();
    const event = drop(el, [pdf(), png()]);
    expect(event.defaultPrevented, "the browser would open the file").to.equal(true);
    await waitUntil(() => q(el, '[part="attach-notice"]') !== null, "nothing said");
    const notice = q(el, '[part="attach-notice"]');
    expect(notice?.textContent).to.equal(
      "Only images can be attached here: report.pdf not attached",
    );
    expect(notice?.getAttribute("role")).to.equal("status");
    await waitUntil(() => q(el, ".attachments img") !== null, "the image was refused too");
  });

  it("takes at most maxFilesPerMessage files, saying why of the others", async () => {
    const uploads = fakeUploads({ maxFilesPerMessage: 2 });
    const { el, sent } = await composer(uploads);
    drop(el, [pdf("1.txt", 1), pdf("2.txt", 1), pdf("3.txt", 1)]);
    await waitUntil(() => chips(el)[2]?.dataset.phase === "failed", "the third was not refused");
    expect(uploads.quotaCalls).to.equal(1);
    expect(uploads.pending.map((p) => p.file.name)).to.deep.equal(["1.txt", "2.txt"]);
    expect(chipText(chips(el)[2] as HTMLElement)).to.contain("At most 2 files per message");
    for (const p of uploads.pending) p.finish();
    await waitUntil(() => chips(el)[1]?.dataset.phase === "ready");
    el.submit();
    expect(sent).to.have.length(1);
    await el.updateComplete;
    expect(chips(el).map((c) => c.dataset.phase)).to.deep.equal(["failed"]);
    // The next message has room: the third goes with it.
    chips(el)[0]?.querySelector<HTMLButtonElement>('[part="upload-retry"]')?.click();
    await waitUntil(() => uploads.pending.length === 3, "Retry was refused again");
    expect(uploads.pending[2]?.file.name).to.equal("3.txt");
  });
});
