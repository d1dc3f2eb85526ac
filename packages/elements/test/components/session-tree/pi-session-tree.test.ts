import { expect, fixture, html, oneEvent, waitUntil } from "@open-wc/testing";
import type { PiClient } from "@pi-kit/client";
import type { AgentMessage, SessionEntry, SessionTreeNode } from "@pi-kit/protocol";
import { sendKeys } from "@web/test-runner-commands";
import "../../../src/define.ts";
import { flattenTree } from "../../../src/components/session-tree/tree-rows.ts";
import type { PiForkedEvent, PiSessionTree, PiTreeSelectEvent } from "../../../src/index.ts";
import { answerOf } from "../../support/helpers.ts";
import { connect, type FakePi, ok, sent, type Written } from "../../support/ui-helpers.ts";

const user = (id: string, text: string): SessionEntry => ({
  type: "message",
  id,
  parentId: null,
  timestamp: "2026-01-01T00:00:00Z",
  message: { role: "user", content: text, timestamp: 0 },
});
const node = (entry: SessionEntry, ...children: SessionTreeNode[]): SessionTreeNode => ({
  entry,
  children,
});

/** A → B → C → { D → F, E } */
function branched(): SessionTreeNode[] {
  return [
    node(
      {
        type: "model_change",
        id: "a",
        parentId: null,
        timestamp: "",
        provider: "fake",
        modelId: "fake-1",
      },
      node(
        user("b", "hello"),
        node(
          user("c", "fork point"),
          node(user("d", "branch one"), node(user("f", "deeper"))),
          node(user("e", "branch two")),
        ),
      ),
    ),
  ];
}

/** One chain nested `depth` deep, built without recursion. */
function chain(depth: number): SessionTreeNode[] {
  let current: SessionTreeNode = node(user(`n${depth - 1}`, `message ${depth - 1}`));
  for (let i = depth - 2; i >= 0; i--) current = node(user(`n${i}`, `message ${i}`), current);
  return [current];
}

const root = (el: PiSessionTree): ShadowRoot => el.shadowRoot as ShadowRoot;
const activeId = (el: PiSessionTree): string | null | undefined =>
  root(el).querySelector('[role="tree"]')?.getAttribute("aria-activedescendant");
const rowText = (el: PiSessionTree, id: string | null | undefined): string =>
  root(el).querySelector(`#${id}`)?.textContent?.replace(/\s+/g, " ").trim() ?? "";

describe("<pi-session-tree>", () => {
  it("flattens a very deep chain without recursion, at one level", () => {
    const rows = flattenTree(chain(20_000));
    expect(rows).to.have.length(20_000);
    expect(rows.every((r) => r.level === 1 && r.parent === -1)).to.equal(true);
    expect(rows[19_999]?.posinset).to.equal(20_000);
  });

  it("indents only at branches", () => {
    const rows = flattenTree(branched());
    expect(rows.map((r) => [r.node.entry.id, r.level, r.expandable])).to.deep.equal([
      ["a", 1, false],
      ["b", 1, false],
      ["c", 1, true],
      ["d", 2, true],
      ["f", 3, false],
      ["e", 2, false],
    ]);
    expect(rows.map((r) => `${r.posinset}/${r.setsize}`)).to.deep.equal([
      "1/3",
      "2/3",
      "3/3",
      "1/2",
      "1/1",
      "2/2",
    ]);
  });

  it("is a keyboard-operable tree starting at the current leaf", async () => {
    const el = await fixture<PiSessionTree>(
      html`<pi-session-tree show-internal .tree=${branched()} leaf-id="e"></pi-session-tree>`,
    );
    expect(root(el).querySelectorAll('[role="treeitem"]')).to.have.length(6);
    expect(rowText(el, activeId(el)))
      .to.contain("branch two")
      .and.contain("current");
    expect(root(el).querySelector('[aria-current="true"]')?.id).to.equal(activeId(el));
    await expect(el).to.be.accessible();
    el.focus();
    await sendKeys({ press: "ArrowLeft" }); // to the parent branch point
    await el.updateComplete;
    expect(rowText(el, activeId(el))).to.contain("fork point");
    await sendKeys({ press: "ArrowLeft" }); // collapse it
    await el.updateComplete;
    expect(root(el).querySelectorAll('[role="treeitem"]')).to.have.length(3);
    expect(
      root(el)
        .querySelector(`#${activeId(el)}`)
        ?.getAttribute("aria-expanded"),
    ).to.equal("false");
    await sendKeys({ press: "ArrowRight" }); // expand
    await sendKeys({ press: "ArrowRight" }); // into the first branch
    await el.updateComplete;
    expect(rowText(el, activeId(el))).to.contain("branch one");
    await sendKeys({ press: "ArrowDown" });
    await el.updateComplete;
    expect(rowText(el, activeId(el))).to.contain("deeper");
    const chosen = oneEvent(el, "pi-tree-select") as Promise<PiTreeSelectEvent>;
    await sendKeys({ press: "Enter" });
    expect((await chosen).entry.id).to.equal("f");
    // Without a client the event is all there is: no question.
    await el.updateComplete;
    expect(root(el).querySelector("[part=confirm]")).to.equal(null);
    await sendKeys({ press: "Home" });
    await el.updateComplete;
    expect(rowText(el, activeId(el))).to.contain("fake/fake-1");
  });

  it("renders a long session", async () => {
    const el = await fixture<PiSessionTree>(
      html`<pi-session-tree .tree=${chain(3000)} leaf-id="n2999"></pi-session-tree>`,
    );
    expect(root(el).querySelectorAll('[role="treeitem"]')).to.have.length(3000);
    expect(activeId(el)).to.equal("row-2999");
  });

  it("loads from pi 1.x and explains that 0.73 has no tree", async () => {
    const v1 = await connect({ get_tree: { tree: branched(), leafId: "f" } });
    const el = await fixture<PiSessionTree>(
      html`<pi-session-tree .client=${v1.client}></pi-session-tree>`,
    );
    await waitUntil(() => root(el).querySelectorAll('[role="treeitem"]').length === 5);
    await v1.client.close();
    const v0 = await connect({}, "0.73");
    const old = await fixture<PiSessionTree>(
      html`<pi-session-tree lang="zh-CN" .client=${v0.client}></pi-session-tree>`,
    );
    await waitUntil(() => old.unsupported);
    await old.updateComplete;
    expect(root(old).querySelector('[part="empty"]')?.textContent).to.equal("会话树需要 pi 1.x");
    await expect(old).to.be.accessible();
    await v0.client.close();
  });

  it("hides pi's bookkeeping by default, with a toggle", async () => {
    const el = await fixture<PiSessionTree>(
      html`<pi-session-tree .tree=${withInternal()} leaf-id="m2"></pi-session-tree>`,
    );
    const texts = () =>
      [...root(el).querySelectorAll('[role="treeitem"]')].map((r) =>
        r.textContent?.replace(/\s+/g, " ").trim(),
      );
    expect(texts()).to.deep.equal(["You hello", "pi hi there current"]);
    const toggle = root(el).querySelector<HTMLInputElement>("[part=internal-toggle] input");
    expect(toggle?.checked).to.equal(false);
    await expect(el).to.be.accessible();
    toggle?.click();
    await el.updateComplete;
    expect(el.showInternal).to.equal(true);
    expect(texts()).to.have.length(5);
    expect(texts().at(-1)).to.contain("current");
    expect(texts().join(" ")).to.contain("System prompt updated").and.contain("fake/fake-2");
  });

  describe("choosing an entry with a client", () => {
    let pi: FakePi;
    let client: PiClient;
    let el: PiSessionTree;

    beforeEach(async () => {
      ({ pi, client } = await connect({
        get_tree: { tree: conversation(), leafId: "a2" },
        get_messages: { messages: [] },
        get_entries: { entries: [], leafId: null },
        switch_session: { cancelled: false },
        fork: (c: Written) => ({
          text: c.entryId === "u2" ? "second question" : "",
          cancelled: false,
        }),
      }));
      el = await fixture<PiSessionTree>(
        html`<pi-session-tree .client=${client}></pi-session-tree>`,
      );
      await waitUntil(() => root(el).querySelectorAll('[role="treeitem"]').length === 4);
    });

    afterEach(async () => {
      await client.close();
    });

    const row = (id: string): HTMLElement => {
      const index = [...root(el).querySelectorAll<HTMLElement>('[role="treeitem"]')].findIndex(
        (r) => r.textContent?.includes(id),
      );
      return root(el).querySelector(`#row-${index}`) as HTMLElement;
    };

    it("branches before a message you wrote, after asking, and reloads", async () => {
      row("second question").click();
      await el.updateComplete;
      expect(root(el).querySelector("[part=confirm]")?.textContent).to.contain(
        "Branch before “second question”?",
      );
      expect(root(el).activeElement?.getAttribute("part")).to.equal("confirm-button");
      await expect(el).to.be.accessible();
      expect(sent(pi, "fork")).to.have.length(0);
      const forked = oneEvent(el, "pi-forked") as Promise<PiForkedEvent>;
      await sendKeys({ press: "Enter" });
      const event = await forked;
      expect(event.entryId).to.equal("u2");
      expect(event.text).to.equal("second question");
      await waitUntil(() => sent(pi, "get_tree").length === 2, "the tree did not reload");
      expect(root(el).activeElement?.getAttribute("role")).to.equal("tree");
    });

    it("promises only what is true: the conversation as it is now is kept", async () => {
      row("second question").click();
      await el.updateComplete;
      const promise = root(el).querySelector("[part=confirm]")?.textContent ?? "";
      expect(promise).not.to.contain("stays in the tree");
      expect(promise).to.contain("is kept and can be reopened");
    });

    it("lists the conversation's other versions below the tree, and switches pi to one", async () => {
      const at = "2026-01-01T00:00:00.000Z";
      const version = { createdAt: at, lastActivity: at };
      el.forks = [
        { ...version, file: "a.jsonl", title: "first question", messageCount: 4, current: false },
        {
          ...version,
          file: "b.jsonl",
          title: "first question (fork)",
          messageCount: 2,
          current: true,
          forkedFrom: "a.jsonl",
        },
      ];
      await el.updateComplete;
      const buttons = [...root(el).querySelectorAll<HTMLElement>("[part=version-button]")];
      expect(buttons.map((b) => b.textContent?.replace(/\s+/g, " ").trim())).to.deep.equal([
        "first question 4 messages",
      ]);
      expect(root(el).querySelector("[part=versions]")?.textContent).to.contain(
        "Other versions of this conversation",
      );
      await expect(el).to.be.accessible();
      buttons[0]?.click();
      await waitUntil(() => sent(pi, "switch_session").length === 1);
      expect(sent(pi, "switch_session")[0]).to.deep.include({ sessionPath: "a.jsonl" });
    });

    it("after switching versions the highlight follows to where that version's conversation is", async () => {
      // The row the user was on (an entry both versions share) is highlighted.
      row("first answer").click();
      await el.updateComplete;
      root(el).querySelector<HTMLElement>("[part=cancel-button]")?.click();
      await el.updateComplete;
      expect(rowText(el, activeId(el))).to.contain("first answer");
      // The other version went on differently after the first answer.
      pi.handlers.set("get_tree", (command) => [
        ok(command, {
          tree: [
            node(
              user("u1", "first question"),
              node(
                answerEntry("a1", "first answer"),
                node(user("u3", "another question"), node(answerEntry("a3", "another answer"))),
              ),
            ),
          ],
          leafId: "a3",
        }),
      ]);
      const at = "2026-01-01T00:00:00.000Z";
      el.forks = [
        {
          file: "a.jsonl",
          title: "first question",
          createdAt: at,
          lastActivity: at,
          messageCount: 4,
          current: false,
        },
        {
          file: "b.jsonl",
          title: "first question (fork)",
          createdAt: at,
          lastActivity: at,
          messageCount: 4,
          current: true,
          forkedFrom: "a.jsonl",
        },
      ];
      await el.updateComplete;
      root(el).querySelector<HTMLElement>("[part=version-button]")?.click();
      await waitUntil(
        () => rowText(el, activeId(el)).includes("another answer"),
        "the highlight stayed behind",
      );
      expect(rowText(el, activeId(el))).to.contain("current");
    });

    it("continues from an answer by forking at the message after it", async () => {
      row("first answer").click();
      await el.updateComplete;
      expect(root(el).querySelector("[part=confirm]")?.textContent).to.contain(
        "Continue from here in a new session?",
      );
      root(el).querySelector<HTMLElement>("[part=confirm-button]")?.click();
      await waitUntil(() => sent(pi, "fork").length === 1);
      expect(sent(pi, "fork")[0]).to.deep.include({ entryId: "u2" });
    });

    it("says so where it cannot branch, and backs out on Escape", async () => {
      row("second answer").click();
      await el.updateComplete;
      expect(root(el).querySelector("[part=note]")?.textContent).to.equal(
        "The conversation is already here.",
      );
      row("first question").click();
      await el.updateComplete;
      expect(root(el).querySelector("[part=note]")?.textContent).to.equal("");
      await sendKeys({ press: "Escape" });
      await el.updateComplete;
      expect(root(el).querySelector("[part=confirm]")).to.equal(null);
      expect(sent(pi, "fork")).to.have.length(0);
    });

    it("leaves the action to the page when pi-tree-select is cancelled", async () => {
      el.addEventListener("pi-tree-select", (e) => e.preventDefault(), { once: true });
      row("second question").click();
      await el.updateComplete;
      expect(root(el).querySelector("[part=confirm]")).to.equal(null);
    });
  });
});

/** A session with bookkeeping: model change, system prompt, message, thinking change, answer. */
function withInternal(): SessionTreeNode[] {
  const system: SessionEntry = {
    type: "message",
    id: "sys",
    parentId: "m1",
    timestamp: "",
    message: {
      role: "system",
      content: "",
      toolsAdded: ["read"],
      timestamp: 0,
    } as unknown as AgentMessage,
  };
  return [
    node(
      {
        type: "model_change",
        id: "m1",
        parentId: null,
        timestamp: "",
        provider: "fake",
        modelId: "fake-1",
      },
      node(
        system,
        node(
          user("u1", "hello"),
          node(
            answerEntry("a1", "hi there"),
            node({
              type: "model_change",
              id: "m2",
              parentId: "a1",
              timestamp: "",
              provider: "fake",
              modelId: "fake-2",
            }),
          ),
        ),
      ),
    ),
  ];
}

/** first question → first answer → second question → second answer (the leaf). */
function conversation(): SessionTreeNode[] {
  return [
    node(
      user("u1", "first question"),
      node(
        answerEntry("a1", "first answer"),
        node(user("u2", "second question"), node(answerEntry("a2", "second answer"))),
      ),
    ),
  ];
}

function answerEntry(id: string, text: string): SessionEntry {
  return {
    type: "message",
    id,
    parentId: null,
    timestamp: "",
    message: answerOf([{ type: "text", text }]),
  };
}
