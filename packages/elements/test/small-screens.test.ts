// Every element at 360 px wide: nothing sticks out sideways, the composer and its buttons are on
// screen, and a dialog takes at most half the height.
import { expect, fixture, html } from "@open-wc/testing";
import type { SessionTreeNode, SlashCommand } from "@pi-kit/protocol";
import { setViewport } from "@web/test-runner-commands";
import type { TemplateResult } from "lit";
import "../src/define.ts";
import type { PiChat, PiDialogItem, PiToasts } from "../src/index.ts";
import { replayInto, settle } from "./support/helpers.ts";
import { MemoryHistory, summary } from "./support/memory-history.ts";
import { model } from "./support/ui-helpers.ts";

const WIDTH = 360;
const HEIGHT = 640;

/** Elements whose box reaches past the right edge, outside any box that scrolls sideways. */
function overflowing(root: Element): string[] {
  const out: string[] = [];
  const walk = (node: Element | ShadowRoot, clipped: boolean): void => {
    for (const child of node.children) {
      const style = getComputedStyle(child);
      const box = child.getBoundingClientRect();
      // Visually hidden text (1 px, clipped) sits at -1 px on purpose.
      const visible =
        style.display !== "none" &&
        style.visibility !== "hidden" &&
        box.width > 1 &&
        box.height > 1;
      if (visible && !clipped && (box.right > WIDTH + 0.5 || box.left < -0.5))
        out.push(
          `${child.localName}.${child.className || child.getAttribute("part") || ""} ${Math.round(box.left)}–${Math.round(box.right)}`,
        );
      // Content inside a box that scrolls sideways (a code block, a wide table) may be wider.
      const scrolls = /auto|scroll/.test(style.overflowX);
      if (child.shadowRoot) walk(child.shadowRoot, clipped || scrolls);
      walk(child, clipped || scrolls);
    }
  };
  walk(root.parentElement ?? root, false);
  return out;
}

function onScreen(el: Element | null | undefined): boolean {
  if (!el) return false;
  const box = el.getBoundingClientRect();
  return (
    box.width > 0 &&
    box.left >= 0 &&
    box.right <= WIDTH + 0.5 &&
    box.top >= 0 &&
    box.bottom <= HEIGHT + 0.5
  );
}

const dialogs: PiDialogItem[] = [
  {
    request: {
      type: "extension_ui_request",
      id: "d1",
      method: "select",
      title: "Which branch should I rebase the feature onto before pushing?",
      options: Array.from({ length: 14 }, (_, i) => `release/1.${i}-with-a-long-branch-name`),
      timeout: 60_000,
    },
  },
  {
    request: {
      type: "extension_ui_request",
      id: "d2",
      method: "confirm",
      title: "Push now?",
      message:
        "git push --force-with-lease origin feature/an-extremely-long-branch-name-without-spaces",
    },
  },
];

const commands: SlashCommand[] = [
  {
    name: "skill:release-notes-from-the-git-log",
    description: "Draft release notes from the git log since the last tag",
    source: "skill",
  },
  { name: "compact", description: "Summarise the conversation to free context", source: "builtin" },
];

function tree(): SessionTreeNode[] {
  const entry = (id: string, text: string) => ({
    type: "message" as const,
    id,
    parentId: null,
    timestamp: "",
    message: { role: "user" as const, content: text, timestamp: 0 },
  });
  return [
    {
      entry: entry(
        "a",
        "Add a --format option to the command-line interface and keep --json as an alias",
      ),
      children: [
        { entry: entry("b", "first branch with a long message that goes on and on"), children: [] },
        {
          entry: entry("c", "second branch"),
          children: [{ entry: entry("d", "deeper"), children: [] }],
        },
      ],
    },
  ];
}

const CASES: [string, () => TemplateResult][] = [
  ["pi-dialog", () => html`<pi-dialog .dialogs=${dialogs}></pi-dialog>`],
  ["pi-toasts", () => html`<pi-toasts duration="0"></pi-toasts>`],
  ["pi-slash-menu", () => html`<pi-slash-menu .commands=${commands} query=""></pi-slash-menu>`],
  [
    "pi-model-picker",
    () =>
      html`<pi-model-picker .models=${[model("anthropic", "claude-sonnet-4-5-with-a-very-long-model-identifier")]}></pi-model-picker>`,
  ],
  [
    "pi-thinking-picker",
    () =>
      html`<pi-thinking-picker .levels=${["off", "minimal", "low", "medium", "high", "xhigh"]}></pi-thinking-picker>`,
  ],
  [
    "pi-session-stats",
    () => html`<pi-session-stats
      .stats=${{
        sessionId: "s",
        userMessages: 12,
        assistantMessages: 30,
        toolCalls: 140,
        toolResults: 140,
        totalMessages: 322,
        tokens: {
          input: 1_248_200,
          output: 96_950,
          cacheRead: 931_000,
          cacheWrite: 44_100,
          total: 2_320_250,
        },
        cost: 12.2143,
        contextUsage: { tokens: 158_400, contextWindow: 200_000, percent: 79.2 },
      }}
    ></pi-session-stats>`,
  ],
  [
    "pi-fork-picker",
    () =>
      html`<pi-fork-picker .messages=${[{ entryId: "a", text: "x".repeat(400) }, { entryId: "b", text: "short" }]}></pi-fork-picker>`,
  ],
  ["pi-session-tree", () => html`<pi-session-tree .tree=${tree()} leaf-id="d"></pi-session-tree>`],
  [
    "pi-session-list",
    () => html`<pi-session-list
      style="height: 500px"
      .history=${new MemoryHistory([
        summary(
          "a",
          "A conversation with a very long title that will not fit in a narrow sidebar",
          3,
          { state: "running" },
        ),
        summary("b", "Refactor", 90, {
          damaged: "the_last_line_was_cut_off_while_pi_was_writing_its_session_file",
        }),
      ])}
    ></pi-session-list>`,
  ],
];

describe("small screens (360 px)", () => {
  const margin = document.body.style.margin;
  before(async () => {
    document.body.style.margin = "0";
    await setViewport({ width: WIDTH, height: HEIGHT });
  });
  after(async () => {
    document.body.style.margin = margin;
    await setViewport({ width: 800, height: 600 });
  });

  for (const [tag, template] of CASES) {
    it(`${tag} stays within 360 px`, async () => {
      const wrapper = await fixture<HTMLDivElement>(
        html`<div style="width: ${WIDTH}px">${template()}</div>`,
      );
      const el = wrapper.firstElementChild as HTMLElement;
      if (tag === "pi-toasts") {
        const toasts = el as PiToasts;
        toasts.show("Formatted 14 files with Biome; the_longest_path/in/the/repository/is/here.ts");
        toasts.show("Deploy failed: permission denied", "error");
      }
      for (let i = 0; i < 5; i++) await new Promise((r) => requestAnimationFrame(r));
      await (el as { updateComplete?: Promise<unknown> }).updateComplete;
      await new Promise((r) => setTimeout(r, 50));
      expect(overflowing(el)).to.deep.equal([]);
      expect(document.documentElement.scrollWidth).to.be.at.most(WIDTH);
    });
  }

  it("a dialog takes at most half the height, and scrolls inside", async () => {
    const el = await fixture(html`<pi-dialog .dialogs=${dialogs}></pi-dialog>`);
    await (el as { updateComplete?: Promise<unknown> }).updateComplete;
    const panel = el.shadowRoot?.querySelector("[part=panel]") as HTMLElement;
    expect(panel.getBoundingClientRect().height).to.be.at.most(HEIGHT / 2 + 0.5);
    // Every option can still be reached: the list scrolls.
    const list = el.shadowRoot?.querySelector("[role=listbox]") as HTMLElement;
    expect(list.scrollHeight).to.be.greaterThan(list.clientHeight);
  });

  it("the chat fits: transcript, dialog at most half the height, composer and its buttons on screen", async () => {
    const chat = await fixture<PiChat>(
      html`<pi-chat style="height: ${HEIGHT}px; width: ${WIDTH}px"></pi-chat>`,
    );
    for (const name of ["thinking", "bash-tool", "bash-command"])
      await replayInto(chat, "1.6.0", name);
    chat.shadowRoot?.querySelector("pi-toasts")?.show("Build finished");
    const dialog = chat.shadowRoot?.querySelector("pi-dialog");
    if (dialog) dialog.dialogs = dialogs;
    chat.composer?.setText("A long message ".repeat(20));
    await settle(chat);
    expect(overflowing(chat)).to.deep.equal([]);
    expect(document.documentElement.scrollWidth).to.be.at.most(WIDTH);
    const composer = chat.composer?.shadowRoot;
    for (const part of ["send-button", "attach-button", "input"])
      expect(onScreen(composer?.querySelector(`[part=${part}]`)), part).to.equal(true);
    const panel = dialog?.shadowRoot?.querySelector("[part=panel]") as HTMLElement;
    expect(panel.getBoundingClientRect().height).to.be.at.most(HEIGHT / 2 + 0.5);
    // The transcript keeps some room to read.
    const log = chat.shadowRoot?.querySelector("[part=transcript]") as HTMLElement;
    expect(log.getBoundingClientRect().height).to.be.at.least(80);
  });
});
