import type { WorkspaceChanges } from "@pi-kit/client";
import type { FileChange } from "@pi-kit/protocol/bridge";

// <pi-changes> is not registered by @pi-kit/elements/define: load it when the page shows it.
await import("@pi-kit/elements/changes");

// Any WorkspaceChanges works: BridgeWorkspaceChanges (from @pi-kit/client) reads a bridge
// session's changes API; this one keeps one turn's changes in memory.
let files: FileChange[] = [
  { path: "src/login.ts", status: "modified", additions: 1, deletions: 1, binary: false },
];
const start = { id: "start", label: "session start", createdAt: Date.now() - 60_000 };
const turn = { id: "turn-1", label: "Fix the login cookie", createdAt: Date.now() - 30_000 };
const changes: WorkspaceChanges = {
  checkpoints: async () => [start, turn],
  changes: async (since = start.id) => ({ since, changes: files, skipped: [] }),
  diff: async (path, since = start.id) => ({
    path,
    since,
    diff: "--- a/src/login.ts\n+++ b/src/login.ts\n@@ -1 +1 @@\n-fetch(url)\n+fetch(url, { credentials: 'same-origin' })\n",
  }),
  revertFile: async (path, since = start.id) => {
    files = files.filter((file) => file.path !== path);
    return { since, changes: files, skipped: [] };
  },
  restore: async (id) => {
    files = [];
    return { since: id, changes: files, skipped: [] };
  },
};

const panel = document.createElement("pi-changes");
panel.changes = changes;
// panel.client = client; // with the session's PiClient it reloads when a run ends
panel.addEventListener("pi-undo-turn", (event) => {
  console.log(`undoing “${event.checkpoint.label}”`);
});
document.body.append(panel);
