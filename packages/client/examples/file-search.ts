import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { WorkspaceFileIndex } from "@pi-kit/client/node";

const workspace = mkdtempSync(join(tmpdir(), "file-search-example-"));
mkdirSync(join(workspace, "src"));
writeFileSync(join(workspace, ".gitignore"), "dist/\n");
writeFileSync(join(workspace, "src/parser.ts"), "");
mkdirSync(join(workspace, "dist"));
writeFileSync(join(workspace, "dist/parser.js"), "");

// Walked once, then kept up to date by file system watches; close() stops them.
const files = new WorkspaceFileIndex({ workspace });
const show = async (query: string) =>
  console.log(`${query}: ${(await files.search({ query })).entries.map((e) => e.path).join(", ")}`);
await show("parser");
// pi writes a file: the next search finds it.
writeFileSync(join(workspace, "src/parser.test.ts"), "");
await show("parser");
files.close();
