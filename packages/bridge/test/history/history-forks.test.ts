/**
 * The history of a forked conversation, without pi: pi writes each fork (and clone) to a new file
 * of the conversation's directory, naming the file it came from in its header. Every file is
 * listed with the conversation, the fork named after its origin; a conversation with no message
 * of the user's yet is left out of the history.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { DigestBuilder, type FileDigest } from "../../src/history/file-digest.ts";
import type { DirectoryRecord, FileRecord } from "../../src/history/session-directory.ts";
import { SessionIndex } from "../../src/history/session-index.ts";
import { summarize } from "../../src/history/stored-session.ts";
import { piSessionLines } from "../pi-session-files.ts";

function digestOf(lines: readonly string[]): FileDigest {
  const builder = new DigestBuilder();
  for (const line of lines) builder.line(line, new TextEncoder().encode(line).length + 1);
  return builder.digest;
}

function file(name: string, lines: readonly string[], mtimeMs: number): FileRecord {
  const digest = digestOf(lines);
  return { file: name, size: digest.parsedBytes, mtimeMs, digest };
}

/**
 * A fork of `origin` as pi writes it: a new header naming the origin's path, then the entries of
 * the origin up to (not including) its entry at `keep`.
 */
function forkLines(origin: readonly string[], keep: number, originPath: string): string[] {
  const header = JSON.parse(origin[0] as string) as Record<string, unknown>;
  const forked = {
    ...header,
    id: crypto.randomUUID(),
    timestamp: new Date(Date.parse(header.timestamp as string) + 60_000).toISOString(),
    parentSession: originPath,
  };
  return [JSON.stringify(forked), ...origin.slice(1, keep)];
}

function directory(name: string, files: readonly FileRecord[]): DirectoryRecord {
  return { name, createdMs: 1000, mtimeMs: 1000, files, otherBytes: 0 };
}

/** The index of the line holding user message number `n` (from 1). */
function userLine(lines: readonly string[], n: number): number {
  let seen = 0;
  return lines.findIndex((line) => line.includes('"role":"user"') && ++seen === n);
}

const origin = piSessionLines({ cwd: "/", turns: 3, firstPrompt: "Name three rivers" }).lines;

test("digest: a fork's header names the file it came from; user messages are counted", () => {
  const fork = forkLines(origin, userLine(origin, 2), "/sessions/rivers/a.jsonl");
  const digest = digestOf(fork);
  assert.equal(digest.header?.parentFile, "a.jsonl");
  assert.equal(digest.userMessages, 1);
  assert.equal(digestOf(origin).userMessages, 3);
  assert.equal(digestOf(origin).header?.parentFile, undefined);
  const windows = forkLines(origin, 1, "C:\\Users\\me\\sessions\\b.jsonl");
  assert.equal(digestOf(windows).header?.parentFile, "b.jsonl");
});

test("a forked conversation lists both files; the fork is named after its origin", () => {
  const fork = forkLines(origin, userLine(origin, 2), "/sessions/rivers/a.jsonl");
  const summary = summarize(
    directory("rivers", [file("a.jsonl", origin, 5000), file("b.jsonl", fork, 6000)]),
  );
  assert.equal(summary.title, "Name three rivers (fork)", "pi continues the fork");
  assert.deepEqual(
    summary.forks?.map((f) => [f.file, f.title, f.current, f.forkedFrom]),
    [
      ["a.jsonl", "Name three rivers", false, undefined],
      ["b.jsonl", "Name three rivers (fork)", true, "a.jsonl"],
    ],
  );
  assert.equal(summary.forks?.[0]?.messageCount, digestOf(origin).messageCount);

  // Switched back to the origin (the bridge marks the file pi moved to as written last).
  const back = summarize(
    directory("rivers", [file("a.jsonl", origin, 7000), file("b.jsonl", fork, 6000)]),
  );
  assert.equal(back.title, "Name three rivers");
  assert.deepEqual(
    back.forks?.map((f) => f.current),
    [true, false],
  );
  // A conversation of one file has no forks to list.
  assert.equal(summarize(directory("one", [file("a.jsonl", origin, 1)])).forks, undefined);
});

test("a fork keeps a name of its own; one copied from its origin gets the fork's suffix", () => {
  const named = [...origin, '{"type":"session_info","id":"n1","parentId":null,"name":"Rivers"}'];
  const copied = forkLines(named, named.length, "/s/a.jsonl");
  const record = directory("named", [file("a.jsonl", named, 1), file("b.jsonl", copied, 2)]);
  assert.equal(summarize(record).title, "Rivers (fork)");
  const renamed = [...copied, '{"type":"session_info","id":"n2","parentId":null,"name":"Lakes"}'];
  const own = directory("named", [file("a.jsonl", named, 1), file("b.jsonl", renamed, 2)]);
  assert.equal(summarize(own).title, "Lakes");
  // A fork of a fork says so twice.
  const again = forkLines(copied, copied.length, "/s/b.jsonl");
  const chain = directory("named", [...record.files, file("c.jsonl", again, 3)]);
  assert.equal(summarize(chain).title, "Rivers (fork) (fork)");
});

test("a fork at the first message is empty and named after its origin, not titled as it", () => {
  const fork = forkLines(origin, userLine(origin, 1), "/sessions/solo/a.jsonl");
  const summary = summarize(
    directory("solo", [file("a.jsonl", origin, 1000), file("b.jsonl", fork, 2000)]),
  );
  assert.equal(summary.title, "Name three rivers (fork)");
  assert.equal(summary.messageCount, 0);
});

test("index: a conversation enters the history with its first message", () => {
  const index = new SessionIndex();
  index.put(directory("fresh", []));
  const header = origin.slice(0, 3);
  index.put(directory("no-prompt", [file("a.jsonl", header, 2000)]));
  index.put(directory("talked", [file("a.jsonl", origin, 3000)]));
  index.put({ ...directory("named", []), pendingName: "Named before its first message" });
  index.put({ ...directory("broken", []), error: "permission denied (EACCES)" });
  assert.deepEqual(
    index
      .page({ limit: 10 })
      .sessions.map((s) => s.name)
      .sort(),
    ["broken", "named", "talked"],
  );
  assert.equal(index.summary("fresh")?.title, "", "an empty session still has a summary");
});

test("a fork pi has not written yet is listed from the live state, empty, named after its origin", () => {
  const record = directory("solo", [file("a.jsonl", origin, 1000)]);
  const live = { state: "idle" as const, lastActivityMs: 5000, file: "b.jsonl", forked: true };
  const summary = summarize(record, live);
  assert.equal(summary.title, "Name three rivers (fork)");
  assert.equal(summary.messageCount, 0);
  assert.deepEqual(
    summary.forks?.map((f) => [f.file, f.title, f.current, f.forkedFrom]),
    [
      ["a.jsonl", "Name three rivers", false, undefined],
      ["b.jsonl", "Name three rivers (fork)", true, "a.jsonl"],
    ],
  );
  // A new session in the same pi is no fork: it is untitled until its first message.
  const fresh = summarize(record, { ...live, forked: false });
  assert.equal(fresh.title, "");
  // Once written, the file on disk is what counts; the live file picks which one is current.
  const fork = forkLines(origin, userLine(origin, 2), "/s/a.jsonl");
  const both = directory("solo", [file("a.jsonl", origin, 9000), file("b.jsonl", fork, 2000)]);
  assert.equal(summarize(both, live).title, "Name three rivers (fork)");
  assert.equal(summarize(both).title, "Name three rivers", "without pi, the file written last");
});

test("a copy into another working directory (a moved project) keeps its origin's title", () => {
  const moved = forkLines(origin, origin.length, "/s/a.jsonl").map((line, i) =>
    i === 0 ? line.replace('"cwd":"/"', '"cwd":"/new/place"') : line,
  );
  const record = directory("moved", [file("a.jsonl", origin, 1), file("b.jsonl", moved, 2)]);
  assert.equal(summarize(record).title, "Name three rivers");
});
