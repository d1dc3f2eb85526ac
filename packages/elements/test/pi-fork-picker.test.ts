import { expect, fixture, html, oneEvent, waitUntil } from "@open-wc/testing";
import type { PiClient } from "@pi-kit/client";
import { sendKeys } from "@web/test-runner-commands";
import "../src/define.ts";
import type { PiForkedEvent, PiForkPicker } from "../src/index.ts";
import { connect, type FakePi, sent, type Written } from "./ui-helpers.ts";

const messages = [
  { entryId: "0048bc1e", text: "first prompt" },
  { entryId: "44f54b37", text: "second prompt" },
  { entryId: "77aa0001", text: "third prompt" },
];
const root = (el: PiForkPicker): ShadowRoot => el.shadowRoot as ShadowRoot;

describe("<pi-fork-picker>", () => {
  let pi: FakePi;
  let client: PiClient;

  beforeEach(async () => {
    ({ pi, client } = await connect({
      get_fork_messages: { messages },
      fork: (c: Written) => ({
        text: messages.find((m) => m.entryId === c.entryId)?.text ?? "",
        cancelled: false,
      }),
    }));
  });

  afterEach(async () => {
    await client.close();
  });

  it("forks from the keyboard and hands back the text", async () => {
    const el = await fixture<PiForkPicker>(
      html`<pi-fork-picker .client=${client}></pi-fork-picker>`,
    );
    await waitUntil(() => root(el).querySelectorAll('[role="option"]').length === 3);
    await expect(el).to.be.accessible();
    el.focus();
    await sendKeys({ press: "ArrowDown" });
    await el.updateComplete;
    expect(
      root(el).querySelector('[role="listbox"]')?.getAttribute("aria-activedescendant"),
    ).to.equal("fork-1");
    const forked = oneEvent(el, "pi-forked") as Promise<PiForkedEvent>;
    await sendKeys({ press: "Enter" });
    const event = await forked;
    expect(event.text).to.equal("second prompt");
    expect(sent(pi, "fork")[0]).to.deep.include({ entryId: "44f54b37" });
  });

  it("moves by typing and End/Home", async () => {
    const el = await fixture<PiForkPicker>(
      html`<pi-fork-picker .messages=${messages}></pi-fork-picker>`,
    );
    el.focus();
    await sendKeys({ press: "t" });
    expect(el.active).to.equal(2);
    await sendKeys({ press: "Home" });
    expect(el.active).to.equal(0);
    await sendKeys({ press: "End" });
    expect(el.active).to.equal(2);
  });

  it("says when there is nothing to fork from", async () => {
    const el = await fixture<PiForkPicker>(
      html`<pi-fork-picker lang="zh-CN" .messages=${[]}></pi-fork-picker>`,
    );
    expect(root(el).querySelector('[part="empty"]')?.textContent).to.equal("还没有可分叉的消息");
    await expect(el).to.be.accessible();
  });
});
