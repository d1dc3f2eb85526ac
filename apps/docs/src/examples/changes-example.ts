/**
 * `<pi-changes>` over a workspace kept in memory: two turns changed four files; Revert file and
 * Undo this turn really put them back (in memory), so the list shrinks as you use it.
 */
import type { WorkspaceChanges } from "@pi-kit/client";
import type { ChangeSet, CheckpointSummary, FileChange } from "@pi-kit/protocol/bridge";
import type { LiveExample } from "./chat-examples.ts";
import { followSiteTheme } from "./site-theme.ts";

const minutes = (n: number): number => Date.now() - n * 60_000;
const CHECKPOINTS: CheckpointSummary[] = [
  { id: "start", label: "session start", createdAt: minutes(12) },
  { id: "run-1", label: "Fix the login cookie", createdAt: minutes(10) },
  { id: "run-2", label: "Add a test for the refused login", createdAt: minutes(4) },
];
/** The files each turn changed, with the diff of the text ones. */
const BY_RUN: Record<string, { change: FileChange; diff: string }[]> = {
  "run-1": [
    {
      change: {
        path: "src/login.ts",
        status: "modified",
        additions: 1,
        deletions: 1,
        binary: false,
      },
      diff: [
        "--- a/src/login.ts",
        "+++ b/src/login.ts",
        "@@ -3,3 +3,3 @@",
        " export async function login(user: string, password: string) {",
        '-  const response = await fetch("/api/login", { method: "POST" });',
        '+  const response = await fetch("/api/login", { method: "POST", credentials: "same-origin" });',
        "   return response.ok;",
        "",
      ].join("\n"),
    },
    {
      change: {
        path: "docs/auth.md",
        oldPath: "docs/login.md",
        status: "renamed",
        additions: 0,
        deletions: 0,
        binary: false,
      },
      diff: "",
    },
  ],
  "run-2": [
    {
      change: {
        path: "test/login.test.ts",
        status: "added",
        additions: 3,
        deletions: 0,
        binary: false,
      },
      diff: [
        "--- /dev/null",
        "+++ b/test/login.test.ts",
        "@@ -0,0 +1,3 @@",
        '+test("a refused login says so", async () => {',
        '+  assert.equal(await login("ann", "wrong"), false);',
        "+});",
        "",
      ].join("\n"),
    },
    {
      change: {
        path: "fixtures/avatar.png",
        status: "modified",
        additions: 0,
        deletions: 0,
        binary: true,
      },
      diff: "",
    },
  ],
};

/** An in-memory WorkspaceChanges: what each turn changed, until it is reverted or undone. */
class MemoryWorkspace implements WorkspaceChanges {
  #checkpoints = [...CHECKPOINTS];
  #changed = new Map(Object.entries(BY_RUN).map(([run, files]) => [run, [...files]]));

  async checkpoints(): Promise<readonly CheckpointSummary[]> {
    return this.#checkpoints;
  }
  async changes(since = "start"): Promise<ChangeSet> {
    const after = this.#checkpoints.findIndex((c) => c.id === since);
    const runs = this.#checkpoints.slice(Math.max(after, 0) + (since === "start" ? 1 : 0));
    const changes = runs.flatMap((c) => this.#changed.get(c.id) ?? []).map((f) => f.change);
    return { since, changes: changes.sort((a, b) => (a.path < b.path ? -1 : 1)), skipped: [] };
  }
  async diff(path: string, since = "start") {
    const file = [...this.#changed.values()].flat().find((f) => f.change.path === path);
    return { path, since, diff: file?.diff ?? "" };
  }
  async revertFile(path: string): Promise<ChangeSet> {
    for (const [run, files] of this.#changed)
      this.#changed.set(
        run,
        files.filter((f) => f.change.path !== path),
      );
    return this.changes();
  }
  async restore(id: string): Promise<ChangeSet> {
    const index = this.#checkpoints.findIndex((c) => c.id === id);
    for (const c of this.#checkpoints.slice(index)) this.#changed.delete(c.id);
    this.#checkpoints = this.#checkpoints.slice(0, index);
    return this.changes();
  }
}

/** The changes panel, loaded as a page would load it: when shown. */
export const changes: LiveExample = {
  async mount(stage) {
    await import("@pi-kit/elements/changes");
    const panel = document.createElement("pi-changes");
    followSiteTheme(panel);
    panel.changes = new MemoryWorkspace();
    stage.append(panel);
  },
};
