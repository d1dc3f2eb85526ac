import { expect, fixture, html } from "@open-wc/testing";
import "../../../src/define.ts";
import type { PiChat, PiToolCall } from "../../../src/index.ts";
import { deepQueryAll, deepText, replayInto } from "../../support/helpers.ts";

const VERSIONS = ["1.6.0", "0.73.1"];

async function chatFor(version: string, name: string, showInternal = false): Promise<PiChat> {
  const chat = await fixture<PiChat>(
    html`<pi-chat style="height: 500px" ?show-internal=${showInternal}></pi-chat>`,
  );
  await replayInto(chat, version, name);
  return chat;
}

for (const version of VERSIONS) {
  describe(`<pi-chat> replaying pi ${version}`, () => {
    it("renders a prompt and a streamed text answer", async () => {
      const chat = await chatFor(version, "text");
      const root = chat.shadowRoot as ShadowRoot;
      const bubbles = deepQueryAll(root, "[part=bubble]");
      expect(bubbles.length).to.equal(1);
      expect(deepQueryAll(root, "pi-markdown").length).to.be.greaterThan(0);
      expect(
        deepText(deepQueryAll(root, "pi-markdown")[0] as Element).trim().length,
      ).to.be.greaterThan(0);
      expect(root.querySelector("[role=log]")).to.not.equal(null);
      expect(deepQueryAll(root, "pi-message[streaming]").length).to.equal(0);
      await expect(chat).to.be.accessible();
    });

    it("renders thinking as a collapsible block", async () => {
      const chat = await chatFor(version, "thinking");
      const thinking = deepQueryAll<HTMLDetailsElement>(
        chat.shadowRoot as ShadowRoot,
        "details.thinking",
      );
      expect(thinking.length).to.be.greaterThan(0);
      expect(thinking[0]?.open).to.equal(false);
      thinking[0]?.querySelector("summary")?.click();
      expect(thinking[0]?.open).to.equal(true);
      await expect(chat).to.be.accessible();
    });

    it("renders a tool call with its arguments, result and status", async () => {
      const chat = await chatFor(version, "bash-tool");
      const tools = deepQueryAll<PiToolCall>(chat.shadowRoot as ShadowRoot, "pi-tool-call");
      expect(tools.length).to.equal(1);
      const tool = tools[0] as PiToolCall;
      expect(tool.status).to.equal("done");
      const text = deepText(tool);
      expect(text).to.contain("bash");
      expect(text).to.contain("echo hi");
      expect(text).to.contain("hi");
      // The result is shown in the call's card, not again as a separate message.
      expect(
        deepQueryAll(chat.shadowRoot as ShadowRoot, ".notice .mono").filter(
          (n) => n.textContent === "bash",
        ),
      ).to.have.length(0);
      await expect(chat).to.be.accessible();
    });

    it("renders a direct bash run", async () => {
      const chat = await chatFor(version, "bash-command");
      const bash = deepQueryAll(chat.shadowRoot as ShadowRoot, "[part=bash]");
      expect(bash.length).to.equal(1);
      expect(deepText(bash[0] as Element)).to.contain("$");
    });

    it("marks an aborted answer", async () => {
      const chat = await chatFor(version, "abort");
      expect(deepQueryAll(chat.shadowRoot as ShadowRoot, ".aborted").length).to.be.greaterThan(0);
    });

    it("shows a retried run as its answer, without the failed attempts", async () => {
      const chat = await chatFor(version, "retry");
      expect(deepQueryAll(chat.shadowRoot as ShadowRoot, "[part=error]")).to.have.length(0);
      expect(deepText(chat.shadowRoot as ShadowRoot)).to.contain("Recovered.");
      await expect(chat).to.be.accessible();
    });

    it("renders non-Latin text", async () => {
      const chat = await chatFor(version, "unicode");
      expect(deepText(chat.shadowRoot as ShadowRoot)).to.match(
        /[\u4e00-\u9fff]|[\u{1F300}-\u{1FAFF}]/u,
      );
    });

    it("answers an extension dialog through its built-in <pi-dialog>", async () => {
      const chat = await chatFor(version, "extension-dialog");
      // "/ui select" is an extension command: no transcript message, and the run must not hang.
      expect(chat.snapshot?.isRunning).to.equal(false);
      expect(chat.composer).to.not.equal(null);
      // The extension reports the answer back as a notification, shown by the built-in toasts.
      const toasts = chat.shadowRoot?.querySelector("pi-toasts");
      expect(toasts?.toasts.map((t) => t.message)).to.include('result: select="B"');
    });
  });
}

describe("<pi-chat> system messages", () => {
  it("hides the 1.x system message unless show-internal is set", async () => {
    const hidden = await chatFor("1.6.0", "text");
    expect(deepQueryAll(hidden.shadowRoot as ShadowRoot, "details.notice")).to.have.length(0);
  });

  it("shows the 1.x system message as a collapsed notice with show-internal", async () => {
    const chat = await chatFor("1.6.0", "text", true);
    const notices = deepQueryAll<HTMLDetailsElement>(
      chat.shadowRoot as ShadowRoot,
      "details.notice",
    );
    expect(notices.length).to.be.greaterThan(0);
    expect(notices[0]?.open).to.equal(false);
  });
});
