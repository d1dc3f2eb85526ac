import assert from "node:assert/strict";
import { test } from "node:test";
import type { SessionSummary } from "@pi-kit/client";
import { ConversationTitle } from "../src/conversation-title.ts";
import type { DemoHistory } from "../src/demo-history.ts";

const host = {
  addController() {},
  removeController() {},
  requestUpdate() {},
  updateComplete: Promise.resolve(true),
};
const summary = (name: string, title: string): SessionSummary =>
  ({ name, title }) as SessionSummary;
/** A history that answers `get` from a table, and fails for a name it lacks. */
const history = (table: Record<string, SessionSummary>) =>
  ({
    get: async (name: string) => table[name] ?? Promise.reject(new Error("unknown")),
  }) as unknown as DemoHistory;

test("conversation title: unknown until the history said, never the bare name; untitled when it has none", async () => {
  let open = "a";
  const title = new ConversationTitle(host, () => open);
  assert.equal(title.title("Untitled"), undefined);
  await title.refresh(history({}), "a");
  assert.equal(title.title("Untitled"), "Untitled");
  await title.refresh(history({ a: summary("a", "Plans") }), "a");
  assert.equal(title.title("Untitled"), "Plans");
  // An answer for a conversation no longer open changes nothing.
  open = "b";
  await title.refresh(history({ a: summary("a", "Old") }), "a");
  assert.equal(title.title("Untitled"), undefined);
});

test("conversation title: a summary of another conversation is dropped when one opens", () => {
  let open = "a";
  const title = new ConversationTitle(host, () => open);
  title.note(summary("b", "Chosen"));
  open = "b";
  title.opening("b");
  assert.equal(title.title("Untitled"), "Chosen", "the one chosen keeps its title while it opens");
  open = "c";
  title.opening("c");
  assert.equal(title.title("Untitled"), undefined);
  assert.equal(title.forks(), undefined);
});
