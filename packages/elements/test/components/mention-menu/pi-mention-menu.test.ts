import { expect, fixture, html, oneEvent, waitUntil } from "@open-wc/testing";
import type { FileSearch, FileSearchPage, FileSearchQuery, WorkspaceEntry } from "@pi-kit/client";
import { sendKeys } from "@web/test-runner-commands";
import "../../../src/define.ts";
import type { PiMentionMenu } from "../../../src/components/mention-menu/pi-mention-menu.ts";
import type { ComposerSubmitEvent } from "../../../src/events/composer-submit.ts";
import type { PiMentionSelectEvent } from "../../../src/events/pi-mention-select.ts";
import type { PiComposer } from "../../../src/index.ts";

const files: WorkspaceEntry[] = [
  { path: "README.md", kind: "file" },
  { path: "src", kind: "directory" },
  { path: "src/app.ts", kind: "file" },
  { path: "src/parser.ts", kind: "file" },
  { path: "docs/my notes.md", kind: "file" },
];

/** A FileSearch over a fixed list: substring match, and every query it was asked. */
function fakeSearch(): FileSearch & { queries: string[] } {
  const queries: string[] = [];
  return {
    queries,
    async search(query: FileSearchQuery): Promise<FileSearchPage> {
      queries.push(query.query);
      const q = query.query.toLowerCase();
      return { entries: files.filter((f) => f.path.toLowerCase().includes(q)), nextCursor: null };
    },
  };
}

const menuOf = (composer: PiComposer): PiMentionMenu | null =>
  composer.shadowRoot?.querySelector("pi-mention-menu") ?? null;
const optionsOf = (menu: PiMentionMenu): string[] =>
  [...(menu.shadowRoot?.querySelectorAll('[part="option"]') ?? [])].map((o) =>
    (o.textContent ?? "").replace(/\s+/g, " ").trim(),
  );
const chipsOf = (menu: PiMentionMenu): string[] =>
  [...(menu.shadowRoot?.querySelectorAll('[part="mention"] span') ?? [])].map(
    (c) => c.textContent ?? "",
  );

async function composer(search?: FileSearch): Promise<{ el: PiComposer; sent: string[] }> {
  const el = await fixture<PiComposer>(html`<pi-composer .fileSearch=${search}></pi-composer>`);
  const sent: string[] = [];
  el.addEventListener("composer-submit", (e) => sent.push((e as ComposerSubmitEvent).text));
  el.focus();
  return { el, sent };
}

describe("<pi-mention-menu> in <pi-composer>", () => {
  it("opens on @, chooses a file with the keyboard, shows it as a chip, and sends @path", async () => {
    const search = fakeSearch();
    const { el, sent } = await composer(search);
    await sendKeys({ type: "look at @" });
    await waitUntil(() => menuOf(el)?.open === true, "the menu did not open");
    const menu = menuOf(el) as PiMentionMenu;
    await waitUntil(() => optionsOf(menu).length === files.length, "no files listed");
    await sendKeys({ type: "par" });
    await waitUntil(() => optionsOf(menu).length === 1, "not narrowed");
    expect(optionsOf(menu)).to.deep.equal(["· parser.ts src"]);
    expect(menu.shadowRoot?.querySelector('[role="status"]')?.textContent).to.contain(
      "src/parser.ts",
    );
    await expect(el).to.be.accessible();
    const chosen = oneEvent(menu, "pi-mention-select") as unknown as Promise<PiMentionSelectEvent>;
    // Enter chooses: it must not send the message.
    await sendKeys({ press: "Enter" });
    expect((await chosen).text).to.equal("@src/parser.ts");
    expect(el.value).to.equal("look at @src/parser.ts ");
    expect(sent).to.deep.equal([]);
    await menu.updateComplete;
    expect(menu.open).to.equal(false);
    expect(chipsOf(menu)).to.deep.equal(["@src/parser.ts"]);
    await sendKeys({ type: "please" });
    await sendKeys({ press: "Enter" });
    expect(sent).to.deep.equal(["look at @src/parser.ts please"]);
  });

  it("moves with the arrows, follows a directory, quotes paths with spaces, hides on Escape", async () => {
    const { el } = await composer(fakeSearch());
    await sendKeys({ type: "@" });
    await waitUntil(() => (menuOf(el) ? optionsOf(menuOf(el) as PiMentionMenu).length : 0) > 0);
    const menu = menuOf(el) as PiMentionMenu;
    await sendKeys({ press: "ArrowDown" });
    await menu.updateComplete;
    expect(menu.active).to.equal(1);
    // The directory: it stays open on what is inside.
    await sendKeys({ press: "Tab" });
    expect(el.value).to.equal("@src/");
    await waitUntil(() => menu.open && optionsOf(menu).length === 2, "not following src/");
    await sendKeys({ press: "ArrowUp" });
    await sendKeys({ press: "ArrowUp" });
    await menu.updateComplete;
    expect(optionsOf(menu)[menu.active]).to.equal("· app.ts src");
    await sendKeys({ press: "Enter" });
    expect(el.value).to.equal("@src/app.ts ");
    await sendKeys({ type: "and @notes" });
    await waitUntil(() => menu.open && optionsOf(menu).length === 1);
    await sendKeys({ press: "Enter" });
    expect(el.value).to.equal('@src/app.ts and @"docs/my notes.md" ');
    await menu.updateComplete;
    expect(chipsOf(menu)).to.deep.equal(["@src/app.ts", "@docs/my notes.md"]);
    // A chip's × takes its mention out of the text.
    const remove = menu.shadowRoot?.querySelector<HTMLButtonElement>('[part="mention"] button');
    remove?.click();
    expect(el.value).to.equal('and @"docs/my notes.md" ');
    await sendKeys({ type: "@zz" });
    await waitUntil(
      () => menu.shadowRoot?.querySelector('[part="empty"]')?.textContent === "No matching files",
    );
    await sendKeys({ press: "Escape" });
    await menu.updateComplete;
    expect(menu.open).to.equal(false);
  });

  it("says why a search failed, and an @ in a word or without a file search is plain text", async () => {
    const failing: FileSearch = {
      search: () => Promise.reject(new Error("the bridge is away")),
    };
    const { el } = await composer(failing);
    await sendKeys({ type: "@x" });
    await waitUntil(() => {
      const text = menuOf(el)?.shadowRoot?.querySelector('[part="empty"]')?.textContent;
      return text === "Could not search the files: the bridge is away";
    });
    const plain = await composer(undefined);
    await sendKeys({ type: "mail me@example.com @" });
    expect(menuOf(plain.el)).to.equal(null);
    const word = await composer(fakeSearch());
    await sendKeys({ type: "me@example" });
    // Nothing loads for an @ inside a word.
    expect(menuOf(word.el)).to.equal(null);
  });
});
