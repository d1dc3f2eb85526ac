import { expect, fixture, html, waitUntil } from "@open-wc/testing";
import type { TemplateResult } from "lit";
import "../../../src/define.ts";
import type { PiChat, PiDialogItem } from "../../../src/index.ts";
import { deepText } from "../../support/helpers.ts";
import { MemoryHistory, summary } from "../../support/memory-history.ts";
import { model } from "../../support/ui-helpers.ts";

const dialog: PiDialogItem = {
  request: {
    type: "extension_ui_request",
    id: "d1",
    method: "confirm",
    title: "Deploy?",
    message: "Runs the deploy script.",
  },
};

/** Each element, with content that shows translated text, and a phrase of each language. */
const CASES: [tag: string, template: () => TemplateResult, english: string, chinese: string][] = [
  ["pi-chat", () => html`<pi-chat style="height: 300px"></pi-chat>`, "Send", "发送"],
  ["pi-dialog", () => html`<pi-dialog .dialogs=${[dialog]}></pi-dialog>`, "Yes", "是"],
  [
    "pi-toasts",
    () => html`<pi-toasts style="--position: static" duration="0"></pi-toasts>`,
    "Notifications",
    "通知",
  ],
  [
    "pi-model-picker",
    () => html`<pi-model-picker .models=${[model("p", "m")]}></pi-model-picker>`,
    "Model",
    "模型",
  ],
  [
    "pi-thinking-picker",
    () => html`<pi-thinking-picker .levels=${["off", "high"]}></pi-thinking-picker>`,
    "High",
    "高",
  ],
  [
    "pi-session-stats",
    () => html`<pi-session-stats></pi-session-stats>`,
    "No statistics",
    "暂无统计",
  ],
  [
    "pi-fork-picker",
    () => html`<pi-fork-picker .messages=${[{ entryId: "e1", text: "hello" }]}></pi-fork-picker>`,
    "Enter to fork",
    "从该消息分叉",
  ],
  [
    "pi-session-tree",
    () => html`<pi-session-tree .tree=${[]}></pi-session-tree>`,
    "No entries",
    "还没有条目",
  ],
  [
    "pi-slash-menu",
    () => html`<pi-slash-menu .commands=${[]} query="x"></pi-slash-menu>`,
    "No matching commands",
    "没有匹配的命令",
  ],
  [
    "pi-session-list",
    () =>
      html`<pi-session-list .history=${new MemoryHistory([summary("a", "", 3)])}></pi-session-list>`,
    "New conversation",
    "新对话",
  ],
];

/** The element's visible text plus its labels (some strings only show as `aria-label`s). */
function textOf(el: Element): string {
  const labels = [el, ...deepAll(el)]
    .flatMap((e) => [e.getAttribute("aria-label"), e.getAttribute("placeholder")])
    .filter(Boolean);
  return `${deepText(el)} ${labels.join(" ")}`;
}

function deepAll(root: Element): Element[] {
  const out: Element[] = [];
  const walk = (node: Element | ShadowRoot): void => {
    for (const child of node.children) {
      out.push(child);
      walk(child);
      if (child.shadowRoot) walk(child.shadowRoot);
    }
  };
  if (root.shadowRoot) walk(root.shadowRoot);
  walk(root);
  return out;
}

describe("live language switching", () => {
  for (const [tag, template, english, chinese] of CASES) {
    it(`${tag} switches when an ancestor's lang changes`, async () => {
      const wrapper = await fixture<HTMLDivElement>(html`<div lang="en">${template()}</div>`);
      const el = wrapper.firstElementChild as HTMLElement;
      await waitUntil(() => textOf(el).includes(english), `${tag} speaks English`);
      wrapper.lang = "zh-CN";
      await waitUntil(() => textOf(el).includes(chinese), `${tag} switched to Chinese`);
      expect(textOf(el)).to.not.include(english);
      wrapper.removeAttribute("lang");
      await waitUntil(() => textOf(el).includes(english), `${tag} back to English`);
    });
  }

  it("follows <html lang>, into the chat's own shadow DOM", async () => {
    const chat = await fixture<PiChat>(html`<pi-chat style="height: 300px"></pi-chat>`);
    const composer = () => chat.composer?.input?.getAttribute("aria-label");
    expect(composer()).to.equal("Message");
    const before = document.documentElement.lang;
    try {
      document.documentElement.lang = "zh-CN";
      await waitUntil(() => composer() === "消息", "composer in Chinese");
    } finally {
      document.documentElement.lang = before;
    }
    await waitUntil(() => composer() === "Message", "composer back in English");
  });
});
