import { expect, fixture, html } from "@open-wc/testing";
import type { PendingDialog, ToolExecution } from "@pi-kit/client";
import type { RpcEvent, ToolCall, ToolResultMessage } from "@pi-kit/protocol";
import "../../../../src/define.ts";
import { dialogOwners } from "../../../../src/components/chat/tool-dialogs.ts";
import type { PiChat, PiDialog, PiToolCall } from "../../../../src/index.ts";
import {
  answerOf,
  deepQueryAll,
  fakeClient,
  settle,
  toolCallOf,
  toolResultOf,
} from "../../../support/helpers.ts";

const call = (name: string, args: Record<string, unknown>, id = "c1"): ToolCall =>
  toolCallOf(name, args, id);
const result = (name: string, text: string, extra: Partial<ToolResultMessage> = {}) =>
  toolResultOf(name, text, extra, "c1");

const running = (id: string, partial?: string): ToolExecution => ({
  toolCallId: id,
  toolName: "bash",
  args: {},
  parentToolCallId: undefined,
  status: "running",
  partialResult: partial === undefined ? undefined : { content: [{ type: "text", text: partial }] },
  result: undefined,
  durationMs: undefined,
});

/** Waits a frame at a time (two seconds at most) until `find` finds something. */
async function until<T>(find: () => T | null | undefined): Promise<T> {
  for (let i = 0; i < 120; i++) {
    const found = find();
    if (found) return found;
    await new Promise((r) => requestAnimationFrame(r));
  }
  throw new Error("timed out");
}

async function card(
  toolCall: ToolCall,
  props: { result?: ToolResultMessage; execution?: ToolExecution; dialog?: PendingDialog } = {},
): Promise<{ el: PiToolCall; root: ShadowRoot }> {
  const el = await fixture<PiToolCall>(
    html`<pi-tool-call .call=${toolCall} .result=${props.result} .execution=${props.execution} .dialog=${props.dialog}></pi-tool-call>`,
  );
  return { el, root: el.shadowRoot as ShadowRoot };
}

const PATCH = `--- src/a.ts
+++ src/a.ts
@@ -10,4 +10,4 @@
 const a = 1;
-const b = 2;
+const b = 3;
 const c = 4;
 const d = 5;
`;

describe("tool views: edit", () => {
  it("shows pi's patch as a numbered diff with added and removed lines", async () => {
    const { root } = await card(
      call("edit", { path: "src/a.ts", edits: [{ oldText: "b = 2", newText: "b = 3" }] }),
      {
        result: result("edit", "Successfully replaced 1 block(s).", { details: { patch: PATCH } }),
      },
    );
    const rows = await until(() => {
      const found = root.querySelectorAll(".diff .row");
      return found.length ? [...found] : null;
    });
    expect(rows.map((r) => r.className.replace("row ", ""))).to.deep.equal([
      "ctx",
      "del",
      "add",
      "ctx",
      "ctx",
    ]);
    const cells = (i: number): string[] =>
      [...(rows[i]?.querySelectorAll("span") ?? [])].map((s) => s.textContent ?? "");
    expect(cells(1)).to.deep.equal(["11", "", "−", "const b = 2;"]);
    expect(cells(2)).to.deep.equal(["", "11", "+", "const b = 3;"]);
    expect(root.querySelector(".diff .label")?.textContent?.replace(/\s+/g, " ").trim()).to.equal(
      "+1 −1",
    );
  });

  it("computes the diff from the call on pi 0.73 (no patch), numbered from firstChangedLine", async () => {
    const { root } = await card(
      call("edit", { path: "a.ts", oldText: "x\ny\nz", newText: "x\nY\nz" }),
      { result: result("edit", "ok", { details: { diff: "...", firstChangedLine: 41 } }) },
    );
    const added = await until(() => root.querySelector(".diff .row.add"));
    expect(added.querySelectorAll("span")[1]?.textContent).to.equal("41");
    expect(root.querySelector(".diff .row.del .text")?.textContent).to.equal("y");
    // The diff's styles come with the lazily loaded view: added lines are tinted.
    expect(getComputedStyle(added).backgroundColor).to.not.equal("rgba(0, 0, 0, 0)");
  });

  it("shows the diff while the edit waits to run", async () => {
    const { root } = await card(
      call("edit", { path: "a.ts", edits: [{ oldText: "old", newText: "new" }] }),
    );
    await until(() => root.querySelector(".diff .row.add"));
    expect(root.querySelector(".diff .row.add .text")?.textContent).to.equal("new");
  });
});

describe("tool views: write and read", () => {
  it("shows a written file numbered and highlighted, clipped with show all", async () => {
    const content = Array.from({ length: 20 }, (_, i) => `const v${i} = ${i};`).join("\n");
    const { el, root } = await card(call("write", { path: "x.ts", content }), {
      result: result("write", "Wrote x.ts"),
    });
    const code = await until(() => root.querySelector(".file code"));
    expect(code.textContent?.split("\n")).to.have.length(8);
    expect(root.querySelector(".gutter")?.textContent?.split("\n")[0]).to.equal("1");
    await until(() => root.querySelector(".file code [class^=shj-syn]"));
    const more = root.querySelector("button.show-all") as HTMLButtonElement;
    expect(more.textContent).to.equal("Show all 20 lines");
    expect(more.getAttribute("aria-expanded")).to.equal("false");
    more.click();
    await el.updateComplete;
    expect(root.querySelector(".file code")?.textContent?.split("\n")).to.have.length(20);
    (root.querySelector("button.show-all") as HTMLButtonElement).click();
    await el.updateComplete;
    expect(root.querySelector(".file code")?.textContent?.split("\n")).to.have.length(8);
  });

  it("shows a read file collapsed, numbered from its offset, with pi's note apart", async () => {
    const text =
      "line ten\nline eleven\nline twelve\n\n[40 more lines in file. Use offset=13 to continue.]";
    const { root } = await card(call("read", { path: "notes.md", offset: 10, limit: 3 }), {
      result: result("read", text),
    });
    const view = await until(() => root.querySelector<HTMLDetailsElement>("details.read"));
    expect(view.open).to.equal(false);
    expect(view.querySelector("summary")?.textContent).to.equal("lines 10–12");
    expect(view.querySelector(".gutter")?.textContent).to.equal("10\n11\n12");
    expect(view.querySelector("code")?.textContent).to.equal("line ten\nline eleven\nline twelve");
    expect(view.querySelector(".note")?.textContent).to.contain("40 more lines");
  });
});

describe("tool views: bash", () => {
  it("renders ANSI colours as styled text, never as markup, and the exit code", async () => {
    const output = "\u001b[31mred\u001b[0m plain <b>bold?</b>\nCommand exited with code 2";
    const { root } = await card(call("bash", { command: "make" }), {
      result: result("bash", output, { isError: true }),
    });
    const red = await until(() => root.querySelector<HTMLElement>(".terminal .output span"));
    expect(red.textContent).to.equal("red");
    expect(red.getAttribute("style")).to.contain("var(--_color-danger)");
    expect(root.querySelector(".terminal b")).to.equal(null);
    expect(root.querySelector(".terminal .output")?.textContent).to.equal("red plain <b>bold?</b>");
    expect(root.querySelector(".exit.failed")?.textContent).to.equal("exit code 2");
    expect(root.querySelector(".command")?.textContent).to.equal("$ make");
  });

  it("shows the tail of long output while it runs, and exit code 0 when done", async () => {
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i}`).join("\n");
    const { el, root } = await card(call("bash", { command: "seq" }), {
      execution: running("c1", lines),
    });
    const out = await until(() => root.querySelector(".terminal .output"));
    expect(out.textContent?.trim().split("\n").at(-1)).to.equal("line 29");
    expect(out.textContent?.trim().split("\n")).to.have.length(8);
    el.result = result("bash", lines);
    el.execution = undefined;
    await el.updateComplete;
    expect(root.querySelector(".exit")?.textContent).to.equal("exit code 0");
    // Finished output stays visible.
    expect(root.querySelector("details")?.open).to.equal(true);
  });

  it("lets a custom renderer replace the built-in view", async () => {
    const el = await fixture<PiToolCall>(
      html`<pi-tool-call .call=${call("bash", { command: "ls" })} .renderer=${() => html`<p class="mine">mine</p>`}></pi-tool-call>`,
    );
    await new Promise((r) => setTimeout(r, 50));
    await el.updateComplete;
    expect(el.shadowRoot?.querySelector(".mine")).to.not.equal(null);
    expect(el.shadowRoot?.querySelector(".terminal")).to.equal(null);
  });
});

describe("tools awaiting approval", () => {
  const confirm: PendingDialog = {
    request: {
      type: "extension_ui_request",
      id: "d1",
      method: "confirm",
      title: "Run rm?",
      message: "rm -rf build",
    },
    openedAt: 0,
    deadline: undefined,
    runBound: true,
  } as PendingDialog;

  it("gives a run's dialog to the tool that started last and still runs", () => {
    const executions = new Map([
      ["a", { ...running("a"), status: "done" } as ToolExecution],
      ["b", running("b")],
      ["c", running("c")],
    ]);
    expect([...dialogOwners([confirm], executions)]).to.deep.equal([["c", confirm]]);
    expect(dialogOwners([{ ...confirm, runBound: false }], executions).size).to.equal(0);
    expect(dialogOwners([confirm], executions)).to.equal(dialogOwners([confirm], executions));
  });

  it("says awaiting approval and shows the dialog in the card, not above the composer", async () => {
    const { client, session, calls } = fakeClient();
    const chat = await fixture<PiChat>(html`<pi-chat style="height: 600px"></pi-chat>`);
    chat.client = client;
    const message = answerOf([call("bash", { command: "rm -rf build" })], {
      stopReason: "toolUse",
    });
    for (const event of [
      { type: "agent_start" },
      { type: "message_start", message },
      { type: "message_end", message },
      { type: "tool_execution_start", toolCallId: "c1", toolName: "bash", args: {} },
    ])
      session.handleEvent(event as unknown as RpcEvent);
    session.setDialogs([confirm]);
    await settle(chat);
    const tool = deepQueryAll<PiToolCall>(chat.shadowRoot as ShadowRoot, "pi-tool-call")[0];
    expect(tool?.status).to.equal("awaiting");
    expect(tool?.shadowRoot?.querySelector(".status")?.textContent).to.contain("awaiting approval");
    const inCard = tool?.shadowRoot?.querySelector<PiDialog>("pi-dialog");
    expect(inCard?.pending.map((d) => d.request.id)).to.deep.equal(["d1"]);
    expect(chat.shadowRoot?.querySelector<PiDialog>("pi-dialog")?.pending).to.deep.equal([]);
    const yes = inCard?.shadowRoot?.querySelector<HTMLElement>("[part~='confirm-button']");
    yes?.click();
    expect(calls).to.deep.include(["answer", "d1", "true"]);
  });
});

describe("tool views: odd data", () => {
  it("falls back to the call's replacements when pi's patch cannot be read", async () => {
    const { root } = await card(
      call("edit", { path: "a.ts", edits: [{ oldText: "old", newText: "new" }] }),
      { result: result("edit", "ok", { details: { patch: "@@ -1,9 +1,9 @@\n-x\n" } }) },
    );
    await until(() => root.querySelector(".diff .row.add"));
    expect(root.querySelector(".diff .row.add .text")?.textContent).to.equal("new");
  });
});

describe("tool cards: a refused call", () => {
  it("reads 'denied', not a red 'failed', and keeps the reason; a real failure still fails", async () => {
    const reason =
      "The user denied this bash call (permission mode: ask). Do not retry it; ask the user what to do instead.";
    const { el, root } = await card(call("bash", { command: "rm -rf build" }), {
      result: result("bash", reason, { isError: true }),
    });
    expect(root.querySelector(".status")?.textContent?.trim()).to.equal("denied");
    expect(el.matches(":state(denied)")).to.equal(true);
    expect(el.matches(":state(error)")).to.equal(false);
    expect(root.querySelector("details")?.classList.contains("error")).to.equal(false);
    expect(root.textContent).to.contain("The user denied this bash call");

    const failed = await card(call("bash", { command: "make" }), {
      result: result("bash", "make: *** No rule to make target. Stop.", { isError: true }),
    });
    expect(failed.root.querySelector(".status")?.textContent?.trim()).to.equal("failed");
    expect(failed.el.matches(":state(error)")).to.equal(true);
  });
});
