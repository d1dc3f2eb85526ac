import { expect, oneEvent, waitUntil } from "@open-wc/testing";
import { readFile } from "@web/test-runner-commands";
import type {
  PiChanges,
  PiChat,
  PiComposer,
  PiMarkdown,
  PiSessionList,
  PiToolCall,
} from "../src/index.ts";
import { deepQueryAll, deepText, settle } from "./support/helpers.ts";

// The documented examples are real files under examples/, shown verbatim on the docs site's guide
// pages and run here (the browser cannot list a folder: add new examples to this list).
const GUIDES = "../../apps/docs/src/content/docs/guides";
const EXAMPLES = {
  "changes.ts": `${GUIDES}/history.md`,
  "markdown.ts": `${GUIDES}/markdown.md`,
  "notifications.ts": `${GUIDES}/chat.md`,
  "replay.ts": `${GUIDES}/chat.md`,
  "session-list.ts": `${GUIDES}/history.md`,
};

/** A file of this package as it is on disk (the test server would serve TypeScript compiled). */
async function source(path: string): Promise<string> {
  const text = await readFile({ path: `../${path}` });
  if (text === undefined) throw new Error(`${path} not found`);
  return text;
}

describe("the documented examples", () => {
  it("the docs site's guides show each example verbatim", async () => {
    for (const [name, page] of Object.entries(EXAMPLES))
      expect((await source(page)).includes((await source(`examples/${name}`)).trim())).to.equal(
        true,
        `${page} does not show examples/${name}`,
      );
  });

  describe("examples/markdown.ts", () => {
    it("loads trusted images, holds back others, labels code and hands copies to the page", async () => {
      await import("../examples/markdown.ts");
      const markdown = document.body.querySelector("pi-markdown") as PiMarkdown;
      const root = markdown.shadowRoot as ShadowRoot;
      await waitUntil(() => root.querySelectorAll("[data-src][data-state]").length === 2);
      const [trusted, tracker] = [...root.querySelectorAll<HTMLElement>("[data-src]")];
      expect(trusted?.querySelector("img")?.getAttribute("src")).to.contain("badges.example.com");
      expect(tracker?.querySelector("img")).to.equal(null);
      expect(tracker?.querySelector("button")?.textContent).to.equal(
        "Load image from tracker.example",
      );
      expect(root.querySelector(".code-head .lang")?.textContent).to.equal("sh");
      const logged: string[] = [];
      const log = console.log;
      console.log = (line: string) => logged.push(line);
      try {
        (root.querySelector("button.copy") as HTMLButtonElement).click();
        await waitUntil(() => logged.length > 0);
      } finally {
        console.log = log;
      }
      expect(logged).to.deep.equal(["copy code: npm test"]);
      markdown.remove();
    });
  });

  describe("examples/replay.ts", () => {
    let chat: PiChat;

    before(async () => {
      await import("../examples/replay.ts");
      const chats = document.body.querySelectorAll("pi-chat");
      expect(chats.length).to.equal(1);
      chat = chats[0] as PiChat;
      // The recording ends with the transport, which closes the client.
      await chat.client?.closed;
      await settle(chat);
    });

    after(() => chat?.remove());

    it("replays the recorded prompt and answer", () => {
      const root = chat.shadowRoot as ShadowRoot;
      expect(deepQueryAll(root, "[part=bubble]").map((b) => deepText(b).trim())).to.deep.equal([
        "[[bash echo hi]]",
      ]);
      expect(deepQueryAll(root, "pi-markdown").map((m) => deepText(m).trim())).to.include(
        "Tool bash returned: hi",
      );
      expect(chat.snapshot?.isRunning).to.equal(false);
    });

    it("renders bash calls with its custom renderer", () => {
      const tools = deepQueryAll<PiToolCall>(chat.shadowRoot as ShadowRoot, "pi-tool-call");
      expect(tools.map((t) => t.status)).to.deep.equal(["done"]);
      const root = (tools[0] as PiToolCall).shadowRoot as ShadowRoot;
      expect([...root.querySelectorAll("pre")].map((p) => p.textContent)).to.deep.equal([
        "$ echo hi\nhi\n",
      ]);
    });

    it("shows its overridden strings", () => {
      const composer = chat.composer as PiComposer;
      const root = composer.shadowRoot as ShadowRoot;
      expect(root.querySelector("[part=send-button]")?.textContent?.trim()).to.equal("Ask");
      expect(composer.input?.placeholder).to.equal("Ask pi anything…");
    });

    it("is accessible", async () => {
      await expect(chat).to.be.accessible();
    });
  });

  describe("examples/session-list.ts", () => {
    let list: PiSessionList;

    before(async () => {
      await import("../examples/session-list.ts");
      list = document.body.querySelector("pi-session-list") as PiSessionList;
      await waitUntil(() => list.sessions.length === 2);
      await list.updateComplete;
    });

    after(() => list?.remove());

    it("lists the conversations and marks the open one", () => {
      const root = list.shadowRoot as ShadowRoot;
      expect([...root.querySelectorAll("[part=title]")].map((t) => t.textContent)).to.deep.equal([
        "Fix the login bug",
        "Draft the release notes",
      ]);
      expect(root.querySelector('[aria-current="true"] [part=title]')?.textContent).to.equal(
        "Fix the login bug",
      );
    });

    it("says which conversation to open", async () => {
      const lines: string[] = [];
      const log = console.log;
      console.log = (line: string) => lines.push(line);
      try {
        const chosen = oneEvent(list, "pi-session-select");
        (list.shadowRoot as ShadowRoot)
          .querySelector<HTMLElement>('[data-name="chat-1"] [part=open-button]')
          ?.click();
        await chosen;
      } finally {
        console.log = log;
      }
      expect(lines).to.deep.equal(["open chat-1"]);
    });

    it("creates, renames and deletes through its history", async () => {
      await list.create();
      // Empty, it is opened but not listed; this history lists it, so the next refresh does.
      expect(list.sessions.map((s) => s.name)).to.deep.equal(["chat-0", "chat-1"]);
      await list.refresh();
      expect(list.sessions.map((s) => s.name)).to.deep.equal(["chat-2", "chat-0", "chat-1"]);
      await list.rename("chat-2", "Plan the sprint");
      await list.delete("chat-0");
      expect(list.sessions.map((s) => s.title)).to.deep.equal([
        "Plan the sprint",
        "Draft the release notes",
      ]);
    });

    it("is accessible", async () => {
      await expect(list).to.be.accessible();
    });
  });

  describe("examples/changes.ts", () => {
    it("lists a turn's changes, shows a diff, and undoes the turn after asking", async () => {
      await import("../examples/changes.ts");
      const panel = document.body.querySelector("pi-changes") as PiChanges;
      const root = panel.shadowRoot as ShadowRoot;
      await waitUntil(() => root.querySelector("[part~=file]") !== null, "no file listed");
      root.querySelector<HTMLElement>("[part=file-button]")?.click();
      await waitUntil(() => deepText(root).includes("credentials: 'same-origin'"), "no diff");
      const lines: string[] = [];
      const log = console.log;
      console.log = (line: string) => lines.push(line);
      try {
        root.querySelector<HTMLElement>("[part=undo-button]")?.click();
        await waitUntil(() => root.querySelector("[part=confirm-button]") !== null, "no question");
        root.querySelector<HTMLElement>("[part=confirm-button]")?.click();
        await waitUntil(() => panel.changeSet?.changes.length === 0, "not undone");
      } finally {
        console.log = log;
      }
      expect(lines).to.deep.equal(["undoing “Fix the login cookie”"]);
      panel.remove();
    });
  });

  describe("examples/notifications.ts", () => {
    const title = document.title;
    let hidden = true;

    before(() => {
      Object.defineProperty(document, "visibilityState", {
        configurable: true,
        get: () => (hidden ? "hidden" : "visible"),
      });
      document.title = "Build";
    });

    after(() => {
      hidden = false;
      document.dispatchEvent(new Event("visibilitychange"));
      Reflect.deleteProperty(document, "visibilityState");
      document.title = title;
      document.body.querySelector("button")?.remove();
    });

    it("badges the title when the run ends in a hidden tab, until the tab is shown", async () => {
      await import("../examples/notifications.ts");
      expect(document.title).to.equal("(1) Build");
      expect(document.body.querySelector("button")?.textContent).to.equal("Notify me");
      hidden = false;
      document.dispatchEvent(new Event("visibilitychange"));
      expect(document.title).to.equal("Build");
    });
  });
});
