// An approval, as the user sees it: the command once, and nothing under a dialog pi waits on
// that a click could set off.
import { expect, fixture, html, waitUntil } from "@open-wc/testing";
import type { PendingDialog } from "@pi-kit/client";
import type { RpcEvent, ToolCall } from "@pi-kit/protocol";
import { sendMouse } from "@web/test-runner-commands";
import "../../../src/define.ts";
import type { PiChat, PiDialog, PiToolCall } from "../../../src/index.ts";
import { answerOf, deepQueryAll, fakeClient, settle } from "../../support/helpers.ts";

// The text a reader sees under `root`, through shadow roots: rendered text nodes only.
function visibleText(root: Node): string {
  let text = "";
  const walk = (node: Node): void => {
    if (node.nodeType === Node.TEXT_NODE && node.parentElement?.checkVisibility())
      text += `${node.textContent} `;
    if (node instanceof Element && node.shadowRoot) walk(node.shadowRoot);
    for (const child of node.childNodes) walk(child);
  };
  walk(root);
  return text;
}

const occurrences = (text: string, of: string): number => text.split(of).length - 1;

async function awaiting(args: Record<string, unknown>, name: string, title: string) {
  const { client, session, calls } = fakeClient();
  const chat = await fixture<PiChat>(html`<pi-chat style="height: 700px"></pi-chat>`);
  chat.client = client;
  const call = { type: "toolCall", id: "c1", name, arguments: args } as ToolCall;
  const message = answerOf([call], { stopReason: "toolUse" });
  for (const event of [
    { type: "agent_start" },
    { type: "message_start", message },
    { type: "message_end", message },
    { type: "tool_execution_start", toolCallId: "c1", toolName: name, args },
  ])
    session.handleEvent(event as unknown as RpcEvent);
  session.setDialogs([
    {
      request: {
        type: "extension_ui_request",
        id: "d1",
        method: "select",
        title,
        options: ["Allow once", "Allow for this session", "Deny"],
      },
      openedAt: 0,
      deadline: undefined,
      runBound: true,
    } as PendingDialog,
  ]);
  await settle(chat);
  const tool = deepQueryAll<PiToolCall>(chat.shadowRoot as ShadowRoot, "pi-tool-call")[0];
  expect(tool?.status).to.equal("awaiting");
  return { chat, tool: tool as PiToolCall, calls };
}

describe("<pi-chat> approvals", () => {
  it("shows a bash approval's command once: in the card's body, asked about in a line", async () => {
    const { tool } = await awaiting(
      { command: "cat notes.txt" },
      "bash",
      "Run this command?\ncat notes.txt",
    );
    const text = visibleText(tool);
    expect(occurrences(text, "cat notes.txt"), text).to.equal(1);
    const title = tool.shadowRoot
      ?.querySelector<PiDialog>("pi-dialog")
      ?.shadowRoot?.querySelector("[part=title]");
    expect(title?.textContent).to.equal("Run this command?");
  });

  it("shows an edit's diff once, and keeps an extension's own details", async () => {
    const edit = await awaiting(
      { path: "notes.txt", edits: [{ oldText: "hello", newText: "goodbye" }] },
      "edit",
      "Edit notes.txt?\n- hello\n+ goodbye",
    );
    const text = visibleText(edit.tool);
    expect(occurrences(text, "goodbye"), text).to.equal(1);
    // Details the card does not show stay in the question.
    const other = await awaiting(
      { command: "make deploy" },
      "bash",
      "Deploy to production?\nThis cannot be undone.",
    );
    expect(visibleText(other.tool)).to.contain("This cannot be undone.");
  });

  it("makes what is under a dialog pi waits on inert: a click there does nothing", async () => {
    const { client, session, calls } = fakeClient();
    const clicks: string[] = [];
    const chat = await fixture<PiChat>(
      html`<pi-chat style="height: 600px" .client=${client}>
        <button slot="empty" style="height: 80px" @click=${() => clicks.push("suggestion")}>
          Ask me to confirm
        </button>
      </pi-chat>`,
    );
    const suggestion = chat.querySelector("button") as HTMLButtonElement;
    const clickIt = async (): Promise<void> => {
      const box = suggestion.getBoundingClientRect();
      await sendMouse({
        type: "click",
        position: [Math.round(box.x + box.width / 2), Math.round(box.y + box.height / 2)],
      });
    };
    await clickIt();
    expect(clicks).to.deep.equal(["suggestion"]);
    session.setDialogs([
      {
        request: {
          type: "extension_ui_request",
          id: "d1",
          method: "confirm",
          title: "Deploy to staging?",
          message: "This runs the deploy script.",
        },
        openedAt: 0,
        deadline: undefined,
        runBound: false,
      } as PendingDialog,
    ]);
    await settle(chat);
    const dialog = chat.shadowRoot?.querySelector<PiDialog>("pi-dialog") as PiDialog;
    await waitUntil(() => dialog.shadowRoot?.querySelector("[part=panel]"), "no dialog");
    await clickIt();
    suggestion.focus();
    expect(clicks, "a click under the dialog").to.deep.equal(["suggestion"]);
    expect(document.activeElement).to.not.equal(suggestion);
    // The dialog itself and the composer still work.
    expect(chat.composer?.closest("[inert]")).to.equal(null);
    dialog.shadowRoot?.querySelector<HTMLElement>("[part~='confirm-button']")?.click();
    expect(calls).to.deep.include(["answer", "d1", "true"]);
    session.setDialogs([]);
    await settle(chat);
    await clickIt();
    expect(clicks).to.deep.equal(["suggestion", "suggestion"]);
  });
});
