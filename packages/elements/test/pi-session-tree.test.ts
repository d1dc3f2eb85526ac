import { expect, fixture, html, oneEvent, waitUntil } from "@open-wc/testing";
import type { SessionEntry, SessionTreeNode } from "@pi-kit/protocol";
import { sendKeys } from "@web/test-runner-commands";
import "../src/define.ts";
import { flattenTree, type PiSessionTree, type PiTreeSelectEvent } from "../src/index.ts";
import { connect } from "./ui-helpers.ts";

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
      html`<pi-session-tree .tree=${branched()} leaf-id="e"></pi-session-tree>`,
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
    await waitUntil(() => root(el).querySelectorAll('[role="treeitem"]').length === 6);
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
});
