import { expect, fixture, html, oneEvent, waitUntil } from "@open-wc/testing";
import type { SessionSummary } from "@pi-kit/client";
import { sendKeys } from "@web/test-runner-commands";
import "../../../src/define.ts";
import { mergeFirstPage } from "../../../src/components/session-list/session-pages.ts";
import type {
  PiErrorEvent,
  PiSessionDeletedEvent,
  PiSessionList,
  PiSessionRenameEvent,
  PiSessionSelectEvent,
} from "../../../src/index.ts";
import { MemoryHistory, summary } from "../../support/memory-history.ts";
import { connect } from "../../support/ui-helpers.ts";

const root = (el: PiSessionList): ShadowRoot => el.shadowRoot as ShadowRoot;
const titles = (el: PiSessionList): string[] =>
  [...root(el).querySelectorAll("[part=title]")].map((t) => t.textContent ?? "");
const rowButton = (el: PiSessionList, name: string): HTMLElement =>
  root(el).querySelector(`[data-name="${name}"] [part=open-button]`) as HTMLElement;
/** The focused control, as `part@row` (chai cannot print shadow DOM nodes when an assertion fails). */
const focused = (el: PiSessionList): string => {
  const active = root(el).activeElement;
  if (active === null) return "nothing";
  return `${active.getAttribute("part")}@${active.closest<HTMLElement>("[data-name]")?.dataset.name ?? ""}`;
};
const on = (name: string): string => `open-button@${name}`;
const loaded = (el: PiSessionList, count: number): Promise<void> =>
  waitUntil(() => !el.loading && el.sessions.length === count, `${count} rows`);

function sample(): SessionSummary[] {
  return [
    summary("fix-login", "Fix the login bug", 5, { state: "running", messageCount: 12 }),
    summary("release", "Draft the release notes", 60 * 3),
    summary("empty", "", 1),
    summary("broken", "Refactor the parser", 60 * 24 * 2, {
      damaged: "the last line was cut off (a crash while writing)",
    }),
  ];
}

async function list(
  history: MemoryHistory,
  template = html`<pi-session-list .history=${history}></pi-session-list>`,
): Promise<PiSessionList> {
  const el = await fixture<PiSessionList>(template);
  await waitUntil(() => el.sessions.length > 0 || (!el.loading && history.calls.length > 0));
  await el.updateComplete;
  return el;
}

describe("<pi-session-list>", () => {
  it("lists titles newest first, with times, a running badge and damaged entries", async () => {
    const el = await list(new MemoryHistory(sample()));
    expect(titles(el)).to.deep.equal([
      "New conversation",
      "Fix the login bug",
      "Draft the release notes",
      "Refactor the parser",
    ]);
    const times = [...root(el).querySelectorAll("[part=time]")].map((t) => t.textContent);
    expect(times).to.deep.equal(["1 min. ago", "5 min. ago", "3 hr. ago", "2 days ago"]);
    const running = root(el).querySelector('[data-name="fix-login"] [part=badge]');
    expect(running?.textContent).to.equal("running");
    expect(root(el).querySelectorAll("[part=badge]")).to.have.length(1);
    expect(root(el).querySelector('[data-name="broken"] [part=damaged]')?.textContent).to.equal(
      "Damaged: the last line was cut off (a crash while writing)",
    );
    // The title attribute gives the full date and the message count.
    expect(rowButton(el, "fix-login").title).to.match(/12 messages$/);
    await expect(el).to.be.accessible();
  });

  it("marks the open conversation and selects with the mouse and the keyboard", async () => {
    const history = new MemoryHistory(sample());
    const el = await list(
      history,
      html`<pi-session-list .history=${history} selected="release"></pi-session-list>`,
    );
    expect(rowButton(el, "release").getAttribute("aria-current")).to.equal("true");
    // Roving tab stop: the selected row is the one Tab reaches.
    expect(rowButton(el, "release").tabIndex).to.equal(0);
    expect(rowButton(el, "fix-login").tabIndex).to.equal(-1);
    const clicked = oneEvent(el, "pi-session-select") as Promise<PiSessionSelectEvent>;
    rowButton(el, "fix-login").click();
    expect((await clicked).session.name).to.equal("fix-login");
    expect(el.selected).to.equal("fix-login");

    el.focus();
    expect(focused(el)).to.equal(on("fix-login"));
    await sendKeys({ press: "ArrowDown" });
    await el.updateComplete;
    expect(focused(el)).to.equal(on("release"));
    await sendKeys({ press: "End" });
    await el.updateComplete;
    expect(focused(el)).to.equal(on("broken"));
    await sendKeys({ press: "Home" });
    await el.updateComplete;
    expect(focused(el)).to.equal(on("empty"));
    await sendKeys({ press: "d" }); // typeahead
    await el.updateComplete;
    expect(focused(el)).to.equal(on("release"));
    const chosen = oneEvent(el, "pi-session-select") as Promise<PiSessionSelectEvent>;
    await sendKeys({ press: "Enter" });
    expect((await chosen).session.name).to.equal("release");
    expect(rowButton(el, "release").getAttribute("aria-current")).to.equal("true");
  });

  it("keeps the selection when pi-session-select is cancelled", async () => {
    const history = new MemoryHistory(sample());
    const el = await list(
      history,
      html`<pi-session-list .history=${history} selected="release"></pi-session-list>`,
    );
    el.addEventListener("pi-session-select", (e) => e.preventDefault(), { once: true });
    rowButton(el, "fix-login").click();
    expect(el.selected).to.equal("release");
  });

  it("renames in place: F2, type, Enter; Escape cancels", async () => {
    const history = new MemoryHistory(sample());
    const el = await list(history);
    rowButton(el, "release").focus();
    await sendKeys({ press: "F2" });
    await el.updateComplete;
    const input = root(el).querySelector<HTMLInputElement>("[part=rename-input]");
    expect(focused(el)).to.equal("rename-input@release");
    expect(input?.value).to.equal("Draft the release notes");
    await expect(el).to.be.accessible();
    const renaming = oneEvent(el, "pi-session-rename") as Promise<PiSessionRenameEvent>;
    await sendKeys({ press: "Control+a" });
    await sendKeys({ type: "Release notes for 1.4" });
    await sendKeys({ press: "Enter" });
    expect((await renaming).title).to.equal("Release notes for 1.4");
    await waitUntil(() => titles(el).includes("Release notes for 1.4"));
    expect(history.calls.filter((c) => c.method === "rename")).to.deep.equal([
      { method: "rename", args: ["release", "Release notes for 1.4"] },
    ]);
    await el.updateComplete;
    expect(focused(el)).to.equal(on("release"));

    await sendKeys({ press: "F2" });
    await el.updateComplete;
    await sendKeys({ type: "thrown away" });
    await sendKeys({ press: "Escape" });
    await el.updateComplete;
    expect(root(el).querySelector("[part=rename-input]")).to.equal(null);
    expect(titles(el)).to.include("Release notes for 1.4");
    expect(history.calls.filter((c) => c.method === "rename")).to.have.length(1);
    expect(focused(el)).to.equal(on("release"));
  });

  it("renames with the row's button and saves on blur", async () => {
    const history = new MemoryHistory(sample());
    const el = await list(history);
    root(el).querySelector<HTMLElement>('[data-name="empty"] [part=rename-button]')?.click();
    await el.updateComplete;
    const input = root(el).querySelector<HTMLInputElement>(
      "[part=rename-input]",
    ) as HTMLInputElement;
    expect(input.getAttribute("aria-label")).to.equal("New title for “New conversation”");
    input.value = "Named at last";
    input.blur();
    await waitUntil(() => titles(el).includes("Named at last"));
  });

  it("deletes after a confirmation, and focus moves to the next row", async () => {
    const history = new MemoryHistory(sample());
    const el = await list(
      history,
      html`<pi-session-list .history=${history} selected="release"></pi-session-list>`,
    );
    rowButton(el, "release").focus();
    await sendKeys({ press: "Delete" });
    await el.updateComplete;
    const confirm = root(el).querySelector("[part=confirm]");
    expect(confirm?.textContent).to.contain(
      "Delete “Draft the release notes” and its files for good?",
    );
    expect(focused(el)).to.equal("cancel-button@release");
    await expect(el).to.be.accessible();
    await sendKeys({ press: "Escape" });
    await el.updateComplete;
    expect(root(el).querySelector("[part=confirm]")).to.equal(null);
    expect(focused(el)).to.equal(on("release"));
    expect(history.calls.some((c) => c.method === "delete")).to.equal(false);

    root(el).querySelector<HTMLElement>('[data-name="release"] [part=delete-button]')?.click();
    await el.updateComplete;
    const deleted = oneEvent(el, "pi-session-deleted") as Promise<PiSessionDeletedEvent>;
    root(el).querySelector<HTMLElement>("[part=confirm-button]")?.click();
    const event = await deleted;
    expect(event.session.name).to.equal("release");
    expect(event.wasSelected).to.equal(true);
    expect(el.selected).to.equal(undefined);
    await el.updateComplete;
    expect(titles(el)).to.not.include("Draft the release notes");
    expect(history.sessions.map((s) => s.name)).to.not.include("release");
    expect(focused(el)).to.equal(on("broken"));
  });

  it("creates a conversation with New chat and opens it", async () => {
    const history = new MemoryHistory(sample());
    const el = await list(history);
    const chosen = oneEvent(el, "pi-session-select") as Promise<PiSessionSelectEvent>;
    root(el).querySelector<HTMLElement>("[part~=new-button]")?.click();
    const event = await chosen;
    expect(event.created).to.equal(true);
    expect(el.selected).to.equal(event.session.name);
    await el.updateComplete;
    // An empty conversation enters the list with its first message, not before.
    expect(el.sessions.map((s) => s.name)).not.to.include(event.session.name);
    await el.create();
    await el.refresh();
    expect(el.sessions).to.have.length(sample().length);
    const created = history.sessions.findIndex((s) => s.name === event.session.name);
    history.sessions[created] = { ...event.session, title: "First words", messageCount: 2 };
    await el.refresh();
    expect(titles(el)[0]).to.equal("First words");
  });

  it("marks a fork with a badge that a narrow list never cuts, in the page's language", async () => {
    const at = new Date().toISOString();
    const version = { createdAt: at, lastActivity: at, messageCount: 4 };
    const long = "Name three rivers of Europe and say which of them is the longest";
    const forked = summary("rivers", `${long} (fork)`, 0, {
      forks: [
        { ...version, file: "a.jsonl", title: long, current: false },
        {
          ...version,
          file: "b.jsonl",
          title: `${long} (fork)`,
          current: true,
          forkedFrom: "a.jsonl",
        },
      ],
    });
    const history = new MemoryHistory([forked, ...sample()]);
    const el = await list(
      history,
      html`<pi-session-list style="width: 220px" .history=${history}></pi-session-list>`,
    );
    const row = root(el).querySelector('[data-name="rivers"]') as HTMLElement;
    const badge = row.querySelector("[part=open-button] [part=fork-badge]") as HTMLElement;
    expect(badge?.textContent).to.equal("fork");
    expect(row.querySelector("[part=open-button] [part=title]")?.textContent).to.equal(long);
    // The title is cut with an ellipsis; the badge is whole and inside the row.
    const title = row.querySelector("[part=open-button] [part=title]") as HTMLElement;
    expect(title.scrollWidth).to.be.greaterThan(title.clientWidth);
    const box = badge.getBoundingClientRect();
    expect(badge.scrollWidth).to.be.at.most(badge.clientWidth + 1);
    expect(box.width).to.be.greaterThan(10);
    expect(box.right).to.be.at.most(rowButton(el, "rivers").getBoundingClientRect().right);
    // The version it came from has no badge; rows of other conversations neither.
    expect(row.querySelectorAll("[part=fork-button] [part=fork-badge]")).to.have.length(0);
    expect(root(el).querySelectorAll("[part=fork-badge]")).to.have.length(1);
    el.lang = "zh-CN";
    await waitUntil(
      () => badge.isConnected && badge.textContent === "分支",
      "the badge in Chinese",
    );
    expect(title.textContent).not.to.contain("fork");
  });

  it("lists a forked conversation's other versions under it; choosing one says which file", async () => {
    const at = new Date().toISOString();
    const version = { createdAt: at, lastActivity: at, messageCount: 6 };
    const forked = summary("rivers", "Name three rivers (fork)", 0, {
      forks: [
        { ...version, file: "a.jsonl", title: "Name three rivers", current: false },
        { ...version, file: "b.jsonl", title: "Name three rivers (fork)", current: true },
      ],
    });
    const el = await list(new MemoryHistory([forked, ...sample()]));
    const forks = root(el).querySelector('[data-name="rivers"] [part=forks]');
    expect(forks?.getAttribute("aria-label")).to.equal(
      "Other versions of “Name three rivers (fork)”",
    );
    const buttons = [...root(el).querySelectorAll<HTMLElement>("[part=fork-button]")];
    expect(buttons.map((b) => b.querySelector("[part=fork-title]")?.textContent)).to.deep.equal([
      "Name three rivers",
    ]);
    expect(buttons[0]?.title).to.match(/^Open this version: .* · 6 messages$/);
    const chosen = oneEvent(el, "pi-session-select") as Promise<PiSessionSelectEvent>;
    buttons[0]?.click();
    const event = await chosen;
    expect(event.session.name).to.equal("rivers");
    expect(event.fork?.file).to.equal("a.jsonl");
    expect(el.selected).to.equal("rivers");
    // Choosing the conversation itself opens the file pi continues.
    const again = oneEvent(el, "pi-session-select") as Promise<PiSessionSelectEvent>;
    rowButton(el, "rivers").click();
    expect((await again).fork).to.equal(undefined);
    await expect(el).to.be.accessible();
  });

  it("leaves creating to the page when pi-session-create is cancelled", async () => {
    const history = new MemoryHistory(sample());
    const el = await list(history);
    el.addEventListener("pi-session-create", (e) => e.preventDefault(), { once: true });
    await el.create();
    expect(history.calls.some((c) => c.method === "create")).to.equal(false);
  });

  it("filters by title, asking the history", async () => {
    const history = new MemoryHistory(sample());
    const el = await list(history);
    root(el).querySelector<HTMLInputElement>("[part=filter]")?.focus();
    await sendKeys({ type: "RELEASE" });
    await waitUntil(() => titles(el).length === 1);
    expect(titles(el)).to.deep.equal(["Draft the release notes"]);
    expect(history.calls.at(-1)?.args[0]).to.deep.include({ query: "RELEASE" });
    // One request after the pause, not one per key.
    expect(history.calls.filter((c) => c.method === "list")).to.have.length(2);
    await sendKeys({ type: "zzz" });
    await waitUntil(() => titles(el).length === 0 && !el.loading);
    await el.updateComplete;
    expect(root(el).querySelector("[part=status]")?.textContent).to.equal(
      "No conversation matches “RELEASEzzz”",
    );
  });

  it("says 'No conversations yet', or 'No earlier conversations' while one not listed is open", async () => {
    const history = new MemoryHistory([]);
    const el = await list(history);
    await waitUntil(() => root(el).querySelector("[part=status]") !== null);
    expect(root(el).querySelector("[part=status]")?.textContent).to.equal("No conversations yet");
    // The page shows a conversation the history does not list yet: no false "no conversations",
    // but the empty list still says so in words.
    el.selected = "main";
    await el.updateComplete;
    expect(root(el).querySelector("[part=status]")?.textContent).to.equal(
      "No earlier conversations",
    );
  });

  it("pages through thousands of conversations as the list scrolls", async () => {
    const many = Array.from({ length: 2000 }, (_, i) => summary(`s${i}`, `Conversation ${i}`, i));
    const history = new MemoryHistory(many);
    const el = await fixture<PiSessionList>(
      html`<div style="height: 400px"><pi-session-list .history=${history} page-size="100"></pi-session-list></div>`,
    ).then((div) => div.querySelector("pi-session-list") as PiSessionList);
    await loaded(el, 100);
    expect(el.hasMore).to.equal(true);
    const scroller = root(el).querySelector(".scroller") as HTMLElement;
    scroller.scrollTop = scroller.scrollHeight;
    await loaded(el, 200);
    expect(history.calls.at(-1)?.args[0]).to.deep.include({ cursor: "100", limit: 100 });
    // The keyboard gets there too: ↓ on the last row loads the next page (unless scrolling
    // the row into view already did) and moves on.
    await waitUntil(() => !el.loading);
    const count = el.sessions.length;
    rowButton(el, `s${count - 1}`).focus();
    await sendKeys({ press: "ArrowDown" });
    await waitUntil(() => el.sessions.length > count && !el.loading, "next page");
    await sendKeys({ press: "ArrowDown" });
    await el.updateComplete;
    expect(Number(focused(el).replace("open-button@s", ""))).to.be.greaterThan(count - 1);
    // The more button is a keyboard-reachable fallback.
    const more = root(el).querySelector<HTMLButtonElement>("[part=more-button]");
    expect(more?.textContent?.trim()).to.equal("Show more");
  });

  it("says why loading failed and tries again", async () => {
    const history = new MemoryHistory(sample());
    history.fail.add("list");
    const errors: PiErrorEvent[] = [];
    const el = await fixture<PiSessionList>(
      html`<pi-session-list .history=${history} @pi-error=${(e: PiErrorEvent) => errors.push(e)}></pi-session-list>`,
    );
    await waitUntil(() => el.error !== undefined);
    await el.updateComplete;
    const status = root(el).querySelector("[part=status]");
    expect(status?.getAttribute("role")).to.equal("alert");
    expect(status?.textContent).to.contain("Could not load: list failed");
    expect(errors.map((e) => e.action)).to.deep.equal(["load-sessions"]);
    status?.querySelector("button")?.click();
    await loaded(el, 4);
  });

  it("reports a failed rename or delete where it happened", async () => {
    const history = new MemoryHistory(sample());
    const el = await list(history);
    history.fail.add("delete");
    const failed = oneEvent(el, "pi-error") as Promise<PiErrorEvent>;
    await el.delete("release");
    expect((await failed).action).to.equal("delete-session");
    await el.updateComplete;
    expect(root(el).querySelector("[role=alert]")?.textContent).to.equal(
      "Could not delete “Draft the release notes”: delete failed",
    );
    expect(titles(el)).to.include("Draft the release notes");
  });

  it("refreshes after each run of its client, keeping later pages", async () => {
    const many = Array.from({ length: 30 }, (_, i) => summary(`s${i}`, `Conversation ${i}`, i + 1));
    const history = new MemoryHistory(many);
    const { pi, client } = await connect();
    const el = await fixture<PiSessionList>(
      html`<div style="height: 300px"><pi-session-list .history=${history} .client=${client} page-size="10"></pi-session-list></div>`,
    ).then((div) => div.querySelector("pi-session-list") as PiSessionList);
    await loaded(el, 10);
    await el.loadMore();
    await loaded(el, 20);
    // s15 gets a message: it moves to the top.
    const index = history.sessions.findIndex((s) => s.name === "s15");
    history.sessions[index] = summary("s15", "Conversation 15, continued", 0, { state: "idle" });
    const calls = history.calls.length;
    pi.push({ type: "agent_start" });
    pi.push({ type: "agent_settled", aborted: false });
    await waitUntil(() => history.calls.length > calls && !el.loading);
    expect(el.sessions.map((s) => s.name).slice(0, 3)).to.deep.equal(["s15", "s0", "s1"]);
    expect(el.sessions).to.have.length(20);
    expect(el.sessions.filter((s) => s.name === "s15")).to.have.length(1);
    await client.close();
  });

  it("refreshes when pi takes a message of the user's, so a new conversation shows at once", async () => {
    const history = new MemoryHistory([summary("older", "An older conversation", 60)]);
    const { pi, client } = await connect();
    const el = await list(
      history,
      html`<pi-session-list .history=${history} .client=${client}></pi-session-list>`,
    );
    await loaded(el, 1);
    history.sessions.unshift(summary("fresh", "Plan a picnic", 0, { state: "running" }));
    const calls = history.calls.length;
    const message = (role: "user" | "assistant") => ({
      type: "message_end",
      message: { role, content: [{ type: "text", text: "Plan a picnic" }], timestamp: 0 },
    });
    pi.push({ type: "agent_start" });
    pi.push(message("assistant"));
    await client.getState(); // the pushed events have reached the client
    expect(history.calls.length, "an answer alone refreshes nothing").to.equal(calls);
    pi.push(message("user"));
    await loaded(el, 2);
    expect(titles(el)).to.deep.equal(["Plan a picnic", "An older conversation"]);
    await client.close();
  });

  it("speaks Chinese, and switches language live", async () => {
    const history = new MemoryHistory(sample());
    const wrapper = await fixture<HTMLDivElement>(
      html`<div lang="zh-CN"><pi-session-list .history=${history}></pi-session-list></div>`,
    );
    const el = wrapper.querySelector("pi-session-list") as PiSessionList;
    await loaded(el, 4);
    await el.updateComplete;
    expect(titles(el)[0]).to.equal("新对话");
    expect(root(el).querySelector("[part=time]")?.textContent).to.equal("1分钟前");
    expect(root(el).querySelector("[part~=new-button]")?.textContent?.trim()).to.equal("新对话");
    await expect(el).to.be.accessible();
    wrapper.lang = "en";
    await waitUntil(
      () => root(el).querySelector("[part=time]")?.textContent === "1 min. ago",
      "switched to English",
    );
    expect(root(el).querySelector("[part~=new-button]")?.textContent?.trim()).to.equal("New chat");
  });
});

describe("mergeFirstPage", () => {
  const s = (name: string): SessionSummary => summary(name, name, 0);

  it("puts the fresh page first and keeps the later pages with their cursor", () => {
    const loadedRows = ["a", "b", "c", "d", "e", "f"].map(s);
    const merged = mergeFirstPage(loadedRows, "6", {
      sessions: ["d", "a", "b"].map(s),
      nextCursor: "3",
    });
    expect(merged.sessions.map((x) => x.name)).to.deep.equal(["d", "a", "b", "c", "e", "f"]);
    expect(merged.nextCursor).to.equal("6");
  });

  it("takes a last page as the whole list", () => {
    const merged = mergeFirstPage(["a", "b", "c"].map(s), "3", {
      sessions: ["b"].map(s),
      nextCursor: null,
    });
    expect(merged.sessions.map((x) => x.name)).to.deep.equal(["b"]);
    expect(merged.nextCursor).to.equal(null);
  });

  it("starts over when the page's last row was never loaded", () => {
    const merged = mergeFirstPage(["a", "b"].map(s), "2", {
      sessions: ["x", "y"].map(s),
      nextCursor: "2",
    });
    expect(merged.sessions.map((x) => x.name)).to.deep.equal(["x", "y"]);
    expect(merged.nextCursor).to.equal("2");
  });
});

describe("<pi-session-list> refreshes", () => {
  it("a refresh asked for while one is in flight runs after it, never cancelling it", async () => {
    const history = new MemoryHistory(sample());
    const el = await list(history);
    const signals: AbortSignal[] = [];
    const listed = history.list.bind(history);
    history.list = (query = {}) => {
      if (query.signal) signals.push(query.signal);
      return listed(query);
    };
    let open!: () => void;
    history.gate = new Promise((resolve) => {
      open = resolve;
    });
    // What switching conversations does: the connection changes, then the page refreshes too.
    void el.refresh();
    void el.refresh();
    void el.refresh();
    await waitUntil(() => signals.length === 1);
    open();
    await waitUntil(() => signals.length === 2 && !el.loading, "one more refresh after the first");
    expect(signals.map((s) => s.aborted)).to.deep.equal([false, false]);
  });
});
