import { expect, fixture, html, oneEvent, waitUntil } from "@open-wc/testing";
import {
  ControlChangeEvent,
  type ControlState,
  PiClient,
  SessionHistoryError,
  SessionHistoryErrorCode,
  type WorkspaceChanges,
} from "@pi-kit/client";
import type { ChangeSet, CheckpointSummary, FileChange, FileDiff } from "@pi-kit/protocol/bridge";
import { sendKeys } from "@web/test-runner-commands";
import "../../../src/changes.ts";
import type {
  PiChanges,
  PiErrorEvent,
  PiRevertFileEvent,
  PiUndoTurnEvent,
} from "../../../src/index.ts";
import { connect, FakePi } from "../../support/ui-helpers.ts";

const START: CheckpointSummary = {
  id: "c0",
  label: "session start",
  createdAt: Date.now() - 60_000,
};
const RUN: CheckpointSummary = { id: "c1", label: "fix the bug", createdAt: Date.now() - 30_000 };
const FILES: FileChange[] = [
  { path: "src/app.ts", status: "modified", additions: 2, deletions: 1, binary: false },
  { path: "src/new.ts", status: "added", additions: 3, deletions: 0, binary: false },
  { path: "old.txt", status: "deleted", additions: 0, deletions: 4, binary: false },
  {
    path: "docs/b.md",
    oldPath: "docs/a.md",
    status: "renamed",
    additions: 0,
    deletions: 0,
    binary: false,
  },
  { path: "logo.png", status: "modified", additions: 0, deletions: 0, binary: true },
];
const DIFF = `diff --git a/src/app.ts b/src/app.ts
index 1111111..2222222 100644
--- a/src/app.ts
+++ b/src/app.ts
@@ -1,3 +1,4 @@
 const a = 1;
-const b = 2;
+const b = 3;
+const c = 4;
 export { a };
`;

/** A WorkspaceChanges in memory that records its calls. */
class FakeChanges implements WorkspaceChanges {
  calls: string[] = [];
  checkpointList: CheckpointSummary[] = [START, RUN];
  files: FileChange[] = [...FILES];
  /** What `changes(since)` lists for a checkpoint other than the start. */
  sinceRun: FileChange[] = FILES.slice(0, 3);
  fail: Partial<Record<"changes" | "diff" | "revertFile" | "restore", Error>> = {};

  async checkpoints(): Promise<readonly CheckpointSummary[]> {
    this.calls.push("checkpoints");
    return this.checkpointList;
  }
  async changes(since?: string): Promise<ChangeSet> {
    this.calls.push(`changes ${since ?? ""}`.trim());
    if (this.fail.changes) throw this.fail.changes;
    const changes = since === undefined || since === START.id ? this.files : this.sinceRun;
    return { since: since ?? START.id, changes, skipped: [] };
  }
  async diff(path: string): Promise<FileDiff> {
    this.calls.push(`diff ${path}`);
    if (this.fail.diff) throw this.fail.diff;
    return { path, since: START.id, diff: DIFF };
  }
  async revertFile(path: string): Promise<ChangeSet> {
    this.calls.push(`revertFile ${path}`);
    if (this.fail.revertFile) throw this.fail.revertFile;
    this.files = this.files.filter((f) => f.path !== path);
    return { since: START.id, changes: this.files, skipped: [] };
  }
  async restore(id: string): Promise<ChangeSet> {
    this.calls.push(`restore ${id}`);
    if (this.fail.restore) throw this.fail.restore;
    this.files = [];
    return { since: START.id, changes: [], skipped: [] };
  }
}

const root = (el: PiChanges): ShadowRoot => el.shadowRoot as ShadowRoot;
const text = (node: Element | null | undefined): string =>
  node?.textContent?.replace(/\s+/g, " ").trim() ?? "";
const fileRow = (el: PiChanges, path: string): HTMLElement =>
  root(el).querySelector(`[part~=file][data-path="${path}"]`) as HTMLElement;
const button = (scope: ParentNode, part: string): HTMLButtonElement =>
  scope.querySelector(`[part~=${part}]`) as HTMLButtonElement;

async function panel(changes: WorkspaceChanges, client?: PiClient): Promise<PiChanges> {
  const el = await fixture<PiChanges>(
    html`<pi-changes .changes=${changes} .client=${client}></pi-changes>`,
  );
  await waitUntil(() => el.changeSet !== undefined && !el.busy, "the changes did not load");
  await el.updateComplete;
  return el;
}

describe("<pi-changes>", () => {
  it("lists the changed files with their status, counts and binary mark, and the turns", async () => {
    const el = await panel(new FakeChanges());
    expect(text(root(el).querySelector("[part=summary]"))).to.equal(
      "5 files changed since the session started",
    );
    expect(text(button(fileRow(el, "src/app.ts"), "file-button"))).to.equal(
      "▸ Modified src/app.ts +2 −1",
    );
    expect(text(button(fileRow(el, "src/new.ts"), "status"))).to.equal("Added");
    expect(text(button(fileRow(el, "old.txt"), "status"))).to.equal("Deleted");
    expect(text(button(fileRow(el, "docs/b.md"), "file-button"))).to.contain(
      "Renamed docs/b.md from docs/a.md",
    );
    expect(text(button(fileRow(el, "logo.png"), "counts"))).to.equal("binary");
    expect(button(fileRow(el, "src/app.ts"), "revert-button").getAttribute("aria-label")).to.equal(
      "Revert file src/app.ts",
    );
    // Only the checkpoints after the session start are turns.
    const runs = [...root(el).querySelectorAll("[part~=run]")];
    expect(runs.map((run) => text(run.querySelector("[part=run-label]")))).to.deep.equal([
      "fix the bug",
    ]);
    await expect(el).to.be.accessible();
  });

  it("marks a file over the checkpoint size cap: its size, no diff, no revert unless it was added", async () => {
    const changes = new FakeChanges();
    const big = (path: string, status: FileChange["status"]): FileChange => ({
      path,
      status,
      additions: 0,
      deletions: 0,
      binary: false,
      tooLarge: true,
      size: 12.5 * 1024 * 1024,
    });
    changes.files = [big("data/dump.sqlite", "modified"), big("new.bin", "added")];
    const el = await panel(changes);
    const dump = fileRow(el, "data/dump.sqlite");
    expect(text(button(dump, "counts"))).to.equal("too large (12.5 MiB)");
    expect(button(dump, "revert-button"), "it cannot be put back").to.equal(null);
    expect(button(fileRow(el, "new.bin"), "revert-button"), "an added one can go").to.not.equal(
      null,
    );
    button(dump, "file-button").click();
    await el.updateComplete;
    expect(text(dump.querySelector(".muted"))).to.equal(
      "Too large to keep in checkpoints: no diff to show, and it cannot be put back.",
    );
    expect(changes.calls.filter((c) => c.startsWith("diff"))).to.deep.equal([]);
    await expect(el).to.be.accessible();
  });

  it("says so in words when nothing changed, and while it loads", async () => {
    const changes = new FakeChanges();
    changes.files = [];
    changes.checkpointList = [START];
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow: WorkspaceChanges = {
      ...changes,
      checkpoints: async () => {
        await held;
        return changes.checkpoints();
      },
      changes: (since) => changes.changes(since),
      diff: (path) => changes.diff(path),
      revertFile: (path) => changes.revertFile(path),
      restore: (id) => changes.restore(id),
    };
    const el = await fixture<PiChanges>(html`<pi-changes .changes=${slow}></pi-changes>`);
    expect(text(root(el).querySelector("[part=summary]"))).to.equal("Loading…");
    release();
    await waitUntil(() => el.changeSet !== undefined);
    await el.updateComplete;
    expect(text(root(el).querySelector("[part=summary]"))).to.equal(
      "No files have changed since the session started.",
    );
    expect(root(el).querySelector("[part~=files]")).to.equal(null);
    expect(root(el).querySelector("[part~=runs]")).to.equal(null);
  });

  it("expands a file's diff with the tool cards' diff table", async () => {
    const changes = new FakeChanges();
    const el = await panel(changes);
    const toggle = button(fileRow(el, "src/app.ts"), "file-button");
    expect(toggle.getAttribute("aria-expanded")).to.equal("false");
    toggle.click();
    await waitUntil(() => fileRow(el, "src/app.ts").querySelector("[part=diff] .rows") !== null);
    expect(toggle.getAttribute("aria-expanded")).to.equal("true");
    const rows = [...fileRow(el, "src/app.ts").querySelectorAll(".row")];
    expect(rows.map((row) => row.className.replace("row ", ""))).to.deep.equal([
      "ctx",
      "del",
      "add",
      "add",
      "ctx",
    ]);
    expect(text(rows[2])).to.equal("2+const b = 3;");
    expect(changes.calls).to.include("diff src/app.ts");
    // A binary file has no text diff to ask for.
    button(fileRow(el, "logo.png"), "file-button").click();
    await el.updateComplete;
    expect(text(fileRow(el, "logo.png").querySelector("[part=diff-region]"))).to.equal(
      "A binary file: no text diff to show.",
    );
    expect(changes.calls).not.to.include("diff logo.png");
    toggle.click();
    await el.updateComplete;
    expect(fileRow(el, "src/app.ts").querySelector("[part=diff-region]")).to.equal(null);
  });

  it("asks before reverting a file, saying what is lost, then reverts it", async () => {
    const changes = new FakeChanges();
    const el = await panel(changes);
    button(fileRow(el, "src/new.ts"), "revert-button").click();
    await el.updateComplete;
    const bar = fileRow(el, "src/new.ts").querySelector("[part=confirm]");
    expect(text(bar?.querySelector(".confirm-text"))).to.equal(
      "Revert src/new.ts: the file did not exist when the session started, so it is deleted.",
    );
    expect(changes.calls.filter((c) => c.startsWith("revertFile"))).to.deep.equal([]);
    // The focus starts on Cancel (the action loses data); Escape backs out.
    expect(root(el).activeElement?.textContent).to.equal("Cancel");
    await sendKeys({ press: "Escape" });
    await el.updateComplete;
    expect(root(el).querySelector("[part=confirm]")).to.equal(null);
    expect(root(el).activeElement).to.equal(button(fileRow(el, "src/new.ts"), "revert-button"));

    button(fileRow(el, "src/app.ts"), "revert-button").click();
    await el.updateComplete;
    expect(text(root(el).querySelector(".confirm-text"))).to.equal(
      "Revert src/app.ts: it goes back to how it was when the session started; its changes since are lost.",
    );
    const event = oneEvent(el, "pi-revert-file") as Promise<PiRevertFileEvent>;
    button(root(el), "confirm-button").click();
    expect((await event).change.path).to.equal("src/app.ts");
    await waitUntil(() => fileRow(el, "src/app.ts") === null, "the list did not reload");
    expect(changes.calls).to.include("revertFile src/app.ts");
    expect(text(root(el).querySelector("[part=note]"))).to.equal("src/app.ts is back as it was.");
  });

  it("asks before undoing a turn, with the number of files and the prompt, then restores its checkpoint", async () => {
    const changes = new FakeChanges();
    const el = await panel(changes);
    const run = root(el).querySelector("[part~=run]") as HTMLElement;
    expect(button(run, "undo-button").getAttribute("aria-label")).to.equal(
      "Undo this turn: “fix the bug”",
    );
    button(run, "undo-button").click();
    await waitUntil(() => run.querySelector("[part=confirm]") !== null, "no confirmation");
    expect(text(run.querySelector(".confirm-text"))).to.equal(
      "Undo this turn: 3 files go back to how they were before “fix the bug”; changes made since are lost.",
    );
    expect(changes.calls).to.include("changes c1");
    expect(changes.calls.some((c) => c.startsWith("restore"))).to.equal(false);
    const event = oneEvent(el, "pi-undo-turn") as Promise<PiUndoTurnEvent>;
    button(run, "confirm-button").click();
    expect((await event).checkpoint.id).to.equal("c1");
    await waitUntil(() => el.changeSet?.changes.length === 0, "the list did not reload");
    expect(changes.calls).to.include("restore c1");
    expect(text(root(el).querySelector("[part=note]"))).to.equal(
      "The workspace is back to how it was before “fix the bug”.",
    );
  });

  it("lets a cancelled pi-revert-file stop the revert", async () => {
    const changes = new FakeChanges();
    const el = await panel(changes);
    el.addEventListener("pi-revert-file", (e) => e.preventDefault());
    button(fileRow(el, "old.txt"), "revert-button").click();
    await el.updateComplete;
    button(root(el), "confirm-button").click();
    await el.updateComplete;
    expect(changes.calls.some((c) => c.startsWith("revertFile"))).to.equal(false);
  });

  it("lets a watcher see the changes but not revert or undo, and says why", async () => {
    const pi = new FakePi("1");
    const watching: ControlState = {
      you: { id: 2, label: "Phone", readOnly: false },
      controller: { id: 1, label: "Desk" },
      viewers: 2,
      inControl: false,
    };
    let control: ControlState = watching;
    const transport = Object.assign(new EventTarget(), pi.transport, {
      takeControl: async () => control,
    });
    Object.defineProperty(transport, "control", { get: () => control });
    const client = new PiClient(transport, { capabilities: "1" });
    const el = await panel(new FakeChanges(), client);
    const revert = button(fileRow(el, "src/app.ts"), "revert-button");
    const undo = button(root(el), "undo-button");
    expect(revert.disabled).to.equal(true);
    expect(undo.disabled).to.equal(true);
    const note = root(el).querySelector("[part=lock-note]");
    expect(text(note)).to.equal(
      "Only the tab in control can revert files or undo turns; this one is watching.",
    );
    expect(revert.getAttribute("aria-describedby")).to.equal(note?.id);
    // Taking control turns them on.
    control = { ...watching, controller: watching.you, inControl: true };
    transport.dispatchEvent(new ControlChangeEvent(control));
    await el.updateComplete;
    expect(button(fileRow(el, "src/app.ts"), "revert-button").disabled).to.equal(false);
    // A read-only panel cannot either.
    el.readOnly = true;
    await el.updateComplete;
    expect(button(fileRow(el, "src/app.ts"), "revert-button").disabled).to.equal(true);
    expect(text(root(el).querySelector("[part=lock-note]"))).to.equal(
      "Read-only: reverting files and undoing turns are off.",
    );
    await client.close();
  });

  it("reloads when a run ends", async () => {
    const { pi, client } = await connect();
    const changes = new FakeChanges();
    changes.files = [];
    const el = await panel(changes, client);
    changes.files = [FILES[0] as FileChange];
    pi.push({ type: "agent_start" });
    pi.push({ type: "agent_end", messages: [] });
    pi.push({ type: "agent_settled" });
    await waitUntil(() => el.changeSet?.changes.length === 1, "no reload after the run");
    await el.updateComplete;
    expect(text(root(el).querySelector("[part=summary]"))).to.equal(
      "1 file changed since the session started",
    );
    await client.close();
  });

  it("shows failures in words, and fires them as pi-error", async () => {
    const changes = new FakeChanges();
    changes.fail.changes = new Error("403 only the controller may do this");
    const failed = new Promise<PiErrorEvent>((resolve) =>
      document.addEventListener("pi-error", (e) => resolve(e), { once: true }),
    );
    const el = await fixture<PiChanges>(html`<pi-changes .changes=${changes}></pi-changes>`);
    expect((await failed).action).to.equal("load-changes");
    await el.updateComplete;
    expect(text(root(el).querySelector("[part=error]"))).to.equal(
      "Could not load the changes: 403 only the controller may do this",
    );
    expect(root(el).querySelector("[part=error]")?.getAttribute("role")).to.equal("alert");

    delete changes.fail.changes;
    changes.fail.revertFile = new Error("the file is locked");
    await el.refresh();
    await el.updateComplete;
    expect(root(el).querySelector("[part=error]")).to.equal(null);
    button(fileRow(el, "src/app.ts"), "revert-button").click();
    await el.updateComplete;
    const revertFailed = oneEvent(el, "pi-error") as Promise<PiErrorEvent>;
    button(root(el), "confirm-button").click();
    expect((await revertFailed).action).to.equal("revert-file");
    await waitUntil(() => root(el).querySelector("[part=error]") !== null);
    expect(text(root(el).querySelector("[part=error]"))).to.equal(
      "Could not revert src/app.ts: the file is locked",
    );

    // The bridge's known refusals read as what to do.
    changes.fail.restore = new SessionHistoryError(SessionHistoryErrorCode.Conflict, "409", {
      status: 409,
      hostCode: "run_in_progress",
    });
    await waitUntil(() => !el.busy, "the list did not reload after the failed revert");
    await el.updateComplete;
    // The reload keeps the failure on screen.
    expect(text(root(el).querySelector("[part=error]"))).to.equal(
      "Could not revert src/app.ts: the file is locked",
    );
    const run = root(el).querySelector("[part~=run]") as HTMLElement;
    button(run, "undo-button").click();
    await waitUntil(() => run.querySelector("[part=confirm]") !== null);
    button(run, "confirm-button").click();
    await waitUntil(() =>
      text(root(el).querySelector("[part=error]")).startsWith("Could not undo"),
    );
    expect(text(root(el).querySelector("[part=error]"))).to.equal(
      "Could not undo the turn: pi is still working; try again when the run has ended",
    );

    changes.fail.diff = new Error("diff timed out");
    button(fileRow(el, "src/new.ts"), "file-button").click();
    await waitUntil(() => fileRow(el, "src/new.ts").querySelector("[part=error]") !== null);
    expect(text(fileRow(el, "src/new.ts").querySelector("[part=error]"))).to.equal(
      "Could not load the diff: diff timed out",
    );
  });

  it("fits a 390 px phone: long paths and prompts wrap, nothing scrolls sideways", async () => {
    const changes = new FakeChanges();
    const long = "src/a-rather/deeply/nested/directory/with/a-very-long-file-name-indeed.ts";
    changes.files = [{ ...(FILES[0] as FileChange), path: long }];
    changes.checkpointList = [START, { ...RUN, label: "x".repeat(120) }];
    const wrapper = await fixture<HTMLDivElement>(
      html`<div style="width: 358px"><pi-changes .changes=${changes}></pi-changes></div>`,
    );
    const el = wrapper.querySelector("pi-changes") as PiChanges;
    await waitUntil(() => el.changeSet !== undefined && !el.busy);
    await el.updateComplete;
    expect(el.scrollWidth).to.be.at.most(el.clientWidth);
    const revert = button(fileRow(el, long), "revert-button").getBoundingClientRect();
    expect(revert.right).to.be.at.most(wrapper.getBoundingClientRect().right);
  });

  it("speaks Chinese", async () => {
    const el = await fixture<PiChanges>(
      html`<pi-changes lang="zh-CN" .changes=${new FakeChanges()}></pi-changes>`,
    );
    await waitUntil(() => el.changeSet !== undefined && !el.busy);
    await el.updateComplete;
    expect(text(root(el).querySelector("[part=summary]"))).to.equal(
      "自会话开始以来更改了 5 个文件",
    );
    expect(text(button(root(el), "undo-button"))).to.equal("撤销这一轮");
  });
});
