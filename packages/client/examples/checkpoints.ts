import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Checkpoints } from "@pi-kit/client/node";

const root = mkdtempSync(join(tmpdir(), "checkpoints-example-"));
const workspace = join(root, "project");
mkdirSync(workspace);
writeFileSync(join(workspace, "notes.txt"), "first\n");

// The shadow repository lives outside the workspace; the project's own .git is never touched.
const checkpoints = await Checkpoints.open({ workspace, dir: join(root, "checkpoints") });
const start = await checkpoints.checkpoint("session start");

// … pi runs (its tools and shell commands change the workspace) …
writeFileSync(join(workspace, "notes.txt"), "first\nsecond\n");
writeFileSync(join(workspace, "new.txt"), "made by a shell command\n");

for (const change of await checkpoints.changes(start.id))
  console.log(`${change.status} ${change.path} +${change.additions} -${change.deletions}`);
await checkpoints.revertFile(start.id, "notes.txt");
await checkpoints.restore(start.id);
console.log(`after restore: ${(await checkpoints.changes(start.id)).length} changes`);
