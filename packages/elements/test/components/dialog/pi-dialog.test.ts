import { aTimeout, expect, fixture, html, oneEvent, waitUntil } from "@open-wc/testing";
import { PiClient } from "@pi-kit/client";
import type { DialogRequest } from "@pi-kit/protocol";
import { sendKeys } from "@web/test-runner-commands";
import { FakePi } from "../../../../client/test/support/fake-pi.ts";
import { TYPING_GUARD_MS } from "../../../src/components/dialog/typing-guard.ts";
import "../../../src/define.ts";
import type {
  PiDialog,
  PiDialogAnswerEvent,
  PiDialogCancelEvent,
  PiDialogItem,
} from "../../../src/index.ts";

const select: DialogRequest = {
  type: "extension_ui_request",
  id: "s1",
  method: "select",
  title: "Pick one",
  options: ["Alpha", "Beta", "Gamma"],
};
const confirm: DialogRequest = {
  type: "extension_ui_request",
  id: "c1",
  method: "confirm",
  title: "Run it?",
  message: "rm -rf build",
};
const input: DialogRequest = {
  type: "extension_ui_request",
  id: "i1",
  method: "input",
  title: "Name",
  placeholder: "your name",
};
const editor: DialogRequest = {
  type: "extension_ui_request",
  id: "e1",
  method: "editor",
  title: "Edit text",
  prefill: "line1",
};

const items = (...requests: DialogRequest[]): PiDialogItem[] =>
  requests.map((request) => ({ request }));
const root = (el: PiDialog): ShadowRoot => el.shadowRoot as ShadowRoot;
const q = <E extends Element = HTMLElement>(el: PiDialog, selector: string): E | null =>
  root(el).querySelector<E>(selector);
const focused = (el: PiDialog): Element | null => root(el).activeElement;

async function mount(
  dialogs: PiDialogItem[],
): Promise<{ el: PiDialog; before: HTMLButtonElement }> {
  const wrapper = await fixture<HTMLDivElement>(html`<div>
    <button id="before">composer</button>
    <pi-dialog></pi-dialog>
  </div>`);
  const before = wrapper.querySelector("#before") as HTMLButtonElement;
  before.focus();
  const el = wrapper.querySelector("pi-dialog") as PiDialog;
  el.dialogs = dialogs;
  await el.updateComplete;
  return { el, before };
}

describe("<pi-dialog>", () => {
  it("renders nothing but a live region without dialogs", async () => {
    const el = await fixture<PiDialog>(html`<pi-dialog></pi-dialog>`);
    expect(q(el, "section")).to.equal(null);
    expect(q(el, '[role="status"]')).to.exist;
    await expect(el).to.be.accessible();
  });

  it("answers a select with arrow keys and Enter, then gives focus back", async () => {
    const { el, before } = await mount(items(select));
    const listbox = q(el, '[role="listbox"]');
    expect(focused(el)).to.equal(listbox);
    expect(q(el, "section")?.getAttribute("aria-modal")).to.equal("false");
    // The panel's styles load with it: the first dialog is drawn styled (the accent edge, the list's box).
    expect(getComputedStyle(q(el, "section") as HTMLElement).borderInlineStartWidth).to.equal(
      "3px",
    );
    expect(getComputedStyle(listbox as HTMLElement).overflowY).to.equal("auto");
    await expect(el).to.be.accessible();
    const answered = oneEvent(el, "pi-dialog-answer") as Promise<PiDialogAnswerEvent>;
    await sendKeys({ press: "ArrowDown" });
    await el.updateComplete;
    expect(listbox?.getAttribute("aria-activedescendant")).to.equal("option-1");
    await sendKeys({ press: "Enter" });
    const event = await answered;
    expect(event.value).to.equal("Beta");
    expect(event.request.id).to.equal("s1");
    await el.updateComplete;
    expect(q(el, "section")).to.equal(null);
    expect(document.activeElement).to.equal(before);
  });

  it("selects by typing the start of an option", async () => {
    const { el } = await mount(items(select));
    await sendKeys({ press: "g" });
    await el.updateComplete;
    expect(el.active).to.equal(2);
    await sendKeys({ press: "End" });
    await sendKeys({ press: "Home" });
    await el.updateComplete;
    expect(el.active).to.equal(0);
  });

  it("answers a select by clicking an option", async () => {
    const { el } = await mount(items(select));
    const answered = oneEvent(el, "pi-dialog-answer") as Promise<PiDialogAnswerEvent>;
    q(el, "#option-2")?.click();
    expect((await answered).value).to.equal("Gamma");
  });

  it("cancels with Escape and restores focus", async () => {
    const { el, before } = await mount(items(confirm));
    expect(q(el, "section")?.getAttribute("role")).to.equal("alertdialog");
    await expect(el).to.be.accessible();
    const cancelled = oneEvent(el, "pi-dialog-cancel") as Promise<PiDialogCancelEvent>;
    await sendKeys({ press: "Escape" });
    const event = await cancelled;
    expect(event.reason).to.equal("user");
    expect(event.request.id).to.equal("c1");
    await el.updateComplete;
    expect(q(el, "section")).to.equal(null);
    expect(document.activeElement).to.equal(before);
  });

  it("confirm focuses No first; arrow keys reach Yes", async () => {
    const { el } = await mount(items(confirm));
    expect(focused(el)?.textContent).to.equal("No");
    await sendKeys({ press: "ArrowRight" });
    expect(focused(el)?.textContent).to.equal("Yes");
    const answered = oneEvent(el, "pi-dialog-answer") as Promise<PiDialogAnswerEvent>;
    await sendKeys({ press: "Enter" });
    expect((await answered).value).to.equal(true);
  });

  it("takes no answer from Enter or space typed for the text field it took the focus from", async () => {
    const wrapper = await fixture<HTMLDivElement>(html`<div>
      <textarea aria-label="composer"></textarea>
      <pi-dialog></pi-dialog>
    </div>`);
    (wrapper.querySelector("textarea") as HTMLTextAreaElement).focus();
    const el = wrapper.querySelector("pi-dialog") as PiDialog;
    const answers: unknown[] = [];
    el.addEventListener("pi-dialog-answer", (e) => answers.push(e.value));
    el.dialogs = items(select);
    await el.updateComplete;
    const listbox = q(el, '[role="listbox"]') as HTMLElement;
    expect(focused(el)).to.equal(listbox);
    const press = (key: string): KeyboardEvent => {
      const event = new KeyboardEvent("keydown", {
        key,
        bubbles: true,
        composed: true,
        cancelable: true,
      });
      listbox.dispatchEvent(event);
      return event;
    };
    // Pressed at once, as the next key of someone typing: held back, no answer.
    expect(press("Enter").defaultPrevented).to.equal(true);
    expect(press(" ").defaultPrevented).to.equal(true);
    expect(answers).to.deep.equal([]);
    // Moving through the options is never held back.
    press("ArrowDown");
    await el.updateComplete;
    expect(el.active).to.equal(1);
    await aTimeout(TYPING_GUARD_MS);
    const answered = oneEvent(el, "pi-dialog-answer") as Promise<PiDialogAnswerEvent>;
    await sendKeys({ press: "Enter" });
    expect((await answered).value).to.equal("Beta");
    expect(answers).to.deep.equal(["Beta"]);
  });

  it("answers an input with typed text and Enter", async () => {
    const { el } = await mount(items(input));
    const field = q<HTMLInputElement>(el, "input");
    expect(focused(el)).to.equal(field);
    expect(field?.placeholder).to.equal("your name");
    await expect(el).to.be.accessible();
    const answered = oneEvent(el, "pi-dialog-answer") as Promise<PiDialogAnswerEvent>;
    await sendKeys({ type: "Ada" });
    await sendKeys({ press: "Enter" });
    expect((await answered).value).to.equal("Ada");
  });

  it("answers an editor with Ctrl+Enter, keeping Enter for new lines", async () => {
    const { el } = await mount(items(editor));
    const area = q<HTMLTextAreaElement>(el, "textarea");
    expect(focused(el)).to.equal(area);
    expect(area?.value).to.equal("line1");
    await expect(el).to.be.accessible();
    area?.setSelectionRange(5, 5);
    await sendKeys({ press: "Enter" });
    await sendKeys({ type: "line2" });
    expect(q(el, "section")).to.exist;
    const answered = oneEvent(el, "pi-dialog-answer") as Promise<PiDialogAnswerEvent>;
    await sendKeys({ press: "Control+Enter" });
    expect((await answered).value).to.equal("line1\nline2");
  });

  it("keeps the dialog open when the answer event is cancelled", async () => {
    const { el } = await mount(items(input));
    el.addEventListener("pi-dialog-answer", (e) => {
      if (e.value === "") e.preventDefault();
    });
    await sendKeys({ press: "Enter" });
    await el.updateComplete;
    expect(q(el, "section")).to.exist;
  });

  it("shows several dialogs oldest first with a counter, each with fresh fields", async () => {
    const second: DialogRequest = { ...input, id: "i2", title: "Second" };
    const { el, before } = await mount(items(input, second, select));
    expect(q(el, '[part="counter"]')?.textContent).to.equal("1 of 3");
    await sendKeys({ type: "first" });
    await sendKeys({ press: "Enter" });
    await el.updateComplete;
    expect(q(el, "h2")?.textContent).to.equal("Second");
    expect(q(el, '[part="counter"]')?.textContent).to.equal("1 of 2");
    const field = q<HTMLInputElement>(el, "input");
    expect(field?.value).to.equal("");
    expect(focused(el)).to.equal(field);
    await sendKeys({ press: "Escape" });
    await el.updateComplete;
    expect(q(el, '[role="listbox"]')).to.exist;
    expect(q(el, '[part="counter"]')).to.equal(null);
    await sendKeys({ press: "Enter" });
    await el.updateComplete;
    expect(q(el, "section")).to.equal(null);
    expect(document.activeElement).to.equal(before);
  });

  it("counts down, then cancels with reason timeout and announces it", async () => {
    const { el } = await mount(items({ ...confirm, timeout: 1200 }));
    expect(q(el, '[part="countdown"]')?.textContent).to.equal("2 s left");
    expect(q(el, "section")?.getAttribute("aria-describedby")).to.contain("countdown");
    const cancelled = oneEvent(el, "pi-dialog-cancel") as Promise<PiDialogCancelEvent>;
    await aTimeout(300);
    await el.updateComplete;
    expect(q(el, '[part="countdown"]')?.textContent).to.equal("1 s left");
    const event = await cancelled;
    expect(event.reason).to.equal("timeout");
    expect(event.cancelable).to.equal(false);
    await el.updateComplete;
    expect(q(el, "section")).to.equal(null);
    expect(q(el, '[role="status"]')?.textContent).to.contain("timed out");
  });

  it("announces a dialog removed from outside", async () => {
    const { el } = await mount(items(select));
    el.dialogs = [];
    await el.updateComplete;
    expect(q(el, '[role="status"]')?.textContent).to.equal("“Pick one” was closed");
  });

  it("speaks the element's language", async () => {
    const wrapper = await fixture<HTMLDivElement>(
      html`<div lang="zh-CN"><pi-dialog></pi-dialog></div>`,
    );
    const el = wrapper.querySelector("pi-dialog") as PiDialog;
    el.dialogs = items(confirm, input);
    await el.updateComplete;
    expect(q(el, '[part="counter"]')?.textContent).to.equal("第 1 个，共 2 个");
    expect(q(el, ".primary")?.textContent).to.equal("是");
  });

  describe("with a client", () => {
    let pi: FakePi;
    let client: PiClient;
    let el: PiDialog;

    beforeEach(async () => {
      pi = new FakePi("1");
      client = new PiClient(pi.transport, { capabilities: "1" });
      el = await fixture<PiDialog>(html`<pi-dialog .client=${client}></pi-dialog>`);
    });

    afterEach(async () => {
      await client.close();
    });

    const show = async (request: DialogRequest): Promise<void> => {
      pi.push(request);
      await waitUntil(() => {
        el.flush();
        return q(el, "section") !== null;
      }, "the dialog did not open");
      await el.updateComplete;
    };

    it("answers through the client", async () => {
      await show(select);
      const written = pi.waitFor("extension_ui_response");
      await sendKeys({ press: "ArrowDown" });
      await sendKeys({ press: "Enter" });
      expect(await written).to.deep.include({ id: "s1", value: "Beta" });
      await el.updateComplete;
      expect(q(el, "section")).to.equal(null);
    });

    it("cancels through the client", async () => {
      await show(confirm);
      const written = pi.waitFor("extension_ui_response");
      await sendKeys({ press: "Escape" });
      expect(await written).to.deep.include({ id: "c1", cancelled: true });
    });

    it("closes a dialog the client timed out, and announces it", async () => {
      await show({ ...input, timeout: 400 });
      expect(q(el, '[part="countdown"]')).to.exist;
      const written = await pi.waitFor("extension_ui_response");
      expect(written).to.deep.include({ id: "i1", cancelled: true });
      await waitUntil(() => {
        el.flush();
        return q(el, "section") === null;
      });
      expect(q(el, '[role="status"]')?.textContent).to.contain("timed out");
    });

    it("handles two pending dialogs in order", async () => {
      pi.push(confirm);
      await show(input);
      expect(q(el, "h2")?.textContent).to.equal("Run it?");
      expect(q(el, '[part="counter"]')?.textContent).to.equal("1 of 2");
      const first = pi.waitFor("extension_ui_response");
      await sendKeys({ press: "ArrowRight" });
      await sendKeys({ press: "Enter" });
      expect(await first).to.deep.include({ id: "c1", confirmed: true });
      await el.updateComplete;
      expect(q(el, "h2")?.textContent).to.equal("Name");
      const second = pi.waitFor("extension_ui_response");
      await sendKeys({ type: "Ada" });
      await sendKeys({ press: "Enter" });
      expect(await second).to.deep.include({ id: "i1", value: "Ada" });
      expect(client.session.getSnapshot().dialogs).to.have.length(0);
    });

    it("leaves the handler alone when passive", async () => {
      const passive = await fixture<PiDialog>(html`<pi-dialog passive></pi-dialog>`);
      const off = client.ui.setDialogHandler(() => new Promise(() => {}));
      passive.client = client;
      await passive.updateComplete;
      pi.push(select);
      await waitUntil(() => {
        passive.flush();
        return passive.shadowRoot?.querySelector("section") !== null;
      });
      off();
    });
  });
});
