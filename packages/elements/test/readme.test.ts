import { expect } from "@open-wc/testing";
import { readFile } from "@web/test-runner-commands";
import type { PiChat, PiComposer, PiToolCall } from "../src/index.ts";
import { deepQueryAll, deepText, settle } from "./helpers.ts";

// README examples are real files under examples/, shown verbatim in README.md and run here (the
// browser cannot list a folder: add new examples to this list).
const EXAMPLES = ["replay.ts"];

/** A file of this package as it is on disk (the test server would serve TypeScript compiled). */
async function source(path: string): Promise<string> {
  const text = await readFile({ path: `../${path}` });
  if (text === undefined) throw new Error(`${path} not found`);
  return text;
}

describe("README examples", () => {
  it("README.md shows each example verbatim", async () => {
    const readme = await source("README.md");
    for (const name of EXAMPLES)
      expect(readme.includes((await source(`examples/${name}`)).trim())).to.equal(
        true,
        `README.md does not show examples/${name}`,
      );
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
});
