/**
 * The history's store without pi: digests of pi's session files (incremental, faults), the index's
 * order and paging, the index file, and damaged directories.
 */
import assert from "node:assert/strict";
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { DigestBuilder, type FileDigest, MAX_SEARCH_TEXT } from "../../src/history/file-digest.ts";
import { INDEX_FILE } from "../../src/history/index-file.ts";
import { readDigest } from "../../src/history/read-digest.ts";
import type { DirectoryRecord } from "../../src/history/session-directory.ts";
import { InvalidCursorError, SessionIndex } from "../../src/history/session-index.ts";
import { SessionStore } from "../../src/history/session-store.ts";
import { silentLogger } from "../../src/index.ts";
import { isSessionName } from "../../src/sessions/session-registry.ts";
import { piSessionLines, writePiSession } from "../pi-session-files.ts";

function digestOf(lines: readonly string[]): FileDigest {
  const builder = new DigestBuilder();
  for (const line of lines) builder.line(line, new TextEncoder().encode(line).length + 1);
  return builder.digest;
}

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), "pi-kit-history-"));
}

test("digest: header, messages, the first user text as title, the latest name", () => {
  const { lines, messages } = piSessionLines({
    cwd: "/work",
    turns: 6,
    firstPrompt: "  Why is\n the build   slow?  ",
    name: "Build speed",
  });
  const digest = digestOf(lines);
  assert.equal(digest.kind, "pi");
  assert.equal(digest.header?.cwd, "/work");
  assert.equal(digest.messageCount, messages);
  assert.equal(messages, 6 * 2 + 2, "six turns, one of them with a tool call and its result");
  assert.equal(digest.firstUserText, "Why is the build slow?");
  assert.equal(digest.name, "Build speed");
  assert.equal(digest.openRun, false);
  assert.equal(digest.badLines, 0);
  assert.equal(digest.lastEntryId, (JSON.parse(lines.at(-1) as string) as { id: string }).id);

  const renamed = digestOf([
    ...lines,
    '{"type":"session_info","id":"x1","parentId":"0","name":"  "}',
  ]);
  assert.equal(renamed.name, undefined, "a blank name clears it, as in pi");
  const long = digestOf(
    piSessionLines({ cwd: "/", turns: 1, firstPrompt: "word ".repeat(100) }).lines,
  );
  assert.equal(long.firstUserText.length, 200);
  assert.ok(long.firstUserText.endsWith("…"));
});

test("digest: the search text of the user's messages and pi's answers, lower-cased and bounded", () => {
  const { lines } = piSessionLines({
    cwd: "/",
    turns: 40,
    firstPrompt: "Why is\n the BUILD slow?",
  });
  const digest = digestOf(lines);
  assert.ok(digest.askedText.startsWith("why is the build slow? question 2: look at the parser"));
  assert.ok(digest.answeredText.startsWith("answer 1. the parser reads a continued line twice"));
  assert.equal(digest.askedText.length, MAX_SEARCH_TEXT.asked, "cut at its bound");
  assert.equal(digest.answeredText.length, MAX_SEARCH_TEXT.answered);
  assert.doesNotMatch(digest.answeredText, /module-5\.ts/, "tool output is not searched");
});

test("digest: a run is open after a user message or tool result, closed by a final answer", () => {
  const { lines } = piSessionLines({ cwd: "/", turns: 2 });
  assert.equal(digestOf(lines).openRun, false);
  assert.equal(
    digestOf(piSessionLines({ cwd: "/", turns: 2, interrupted: true }).lines).openRun,
    true,
  );
  const toolUse = piSessionLines({ cwd: "/", turns: 5 }).lines;
  // Cut after the assistant's tool call, then after its result: both leave the run open.
  const callAt = toolUse.findIndex((l) => l.includes('"stopReason":"toolUse"'));
  assert.equal(digestOf(toolUse.slice(0, callAt + 1)).openRun, true);
  assert.equal(digestOf(toolUse.slice(0, callAt + 2)).openRun, true);
  assert.equal(digestOf(toolUse).openRun, false);
});

test("digest: malformed lines are counted and skipped; a file that does not start as pi's is foreign", () => {
  const { lines } = piSessionLines({ cwd: "/", turns: 2 });
  const digest = digestOf([lines[0] as string, "{not json", "", "[1,2]", ...lines.slice(1)]);
  assert.equal(digest.kind, "pi");
  assert.equal(digest.badLines, 2);
  assert.equal(digest.messageCount, 4);
  assert.equal(digestOf(['{"hello":"world"}', ...lines]).kind, "foreign");
  assert.equal(digestOf(["garbage"]).kind, "empty");
  // pi takes the first line that parses as the header, as it loads files.
  assert.equal(digestOf(["{broken", ...lines]).kind, "pi");
});

test("readDigest: a grown file is read from where the last digest stopped, and agrees with a full read", async () => {
  const dir = tempDir();
  try {
    const { lines } = piSessionLines({ cwd: "/", turns: 8, name: "Named" });
    const path = join(dir, "s.jsonl");
    writeFileSync(path, `${lines.slice(0, 10).join("\n")}\n`);
    const first = await readDigest(path);
    appendFileSync(path, `${lines.slice(10).join("\n")}\n`);
    const grown = await readDigest(path, first.digest);
    const full = await readDigest(path);
    assert.deepEqual(grown, full);
    assert.equal(grown.digest.name, "Named");

    // A rewritten file (another first line) is read again from the start.
    const other = piSessionLines({ cwd: "/elsewhere", turns: 1 }).lines;
    writeFileSync(path, `${other.join("\n")}\n${lines.slice(1).join("\n")}\n`);
    const reread = await readDigest(path, grown.digest);
    assert.equal(reread.digest.header?.cwd, "/elsewhere");
    assert.deepEqual(reread, await readDigest(path));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("readDigest: a last line without LF (a crash mid-write) is left out until it is complete", async () => {
  const dir = tempDir();
  try {
    const { lines } = piSessionLines({ cwd: "/", turns: 3 });
    const path = join(dir, "s.jsonl");
    const last = lines.at(-1) as string;
    writeFileSync(path, `${lines.slice(0, -1).join("\n")}\n${last.slice(0, 40)}`);
    const partial = await readDigest(path);
    assert.equal(partial.size, statSync(path).size);
    assert.ok(partial.digest.parsedBytes < partial.size);
    assert.equal(partial.digest.messageCount, 5);
    appendFileSync(path, `${last.slice(40)}\n`);
    const whole = await readDigest(path, partial.digest);
    assert.equal(whole.digest.messageCount, 6);
    assert.equal(whole.digest.parsedBytes, whole.size);
    assert.equal(whole.digest.badLines, 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A directory record with one pi file, for index tests. */
function record(name: string, activity: number, title: string): DirectoryRecord {
  const digest = digestOf(piSessionLines({ cwd: "/", turns: 1, firstPrompt: title }).lines);
  return {
    name,
    createdMs: activity,
    mtimeMs: activity,
    files: [{ file: "a.jsonl", size: digest.parsedBytes, mtimeMs: activity, digest }],
    otherBytes: 0,
  };
}

test("index: pages follow activity (newest first, then name), each session once", () => {
  const index = new SessionIndex();
  for (let i = 0; i < 250; i++)
    index.put(record(`s${i}`, 1_000_000 + (i % 50) * 1000, `title ${i}`));
  const seen: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = index.page({ limit: 60, cursor });
    seen.push(...page.sessions.map((s) => s.name));
    cursor = page.nextCursor ?? undefined;
    pages++;
  } while (cursor !== undefined);
  assert.equal(pages, 5);
  assert.equal(new Set(seen).size, 250);
  const keys = seen.map((name) => {
    const s = index.summary(name);
    return [Date.parse(s?.lastActivity ?? ""), name] as const;
  });
  for (let i = 1; i < keys.length; i++) {
    const [a, an] = keys[i - 1] as readonly [number, string];
    const [b, bn] = keys[i] as readonly [number, string];
    assert.ok(a > b || (a === b && an < bn), `out of order at ${i}`);
  }
});

test("index: paging by key survives sessions moving, added and removed between pages", () => {
  const index = new SessionIndex();
  for (let i = 0; i < 10; i++) index.put(record(`s${i}`, 1000 + i * 1000, `t${i}`));
  const first = index.page({ limit: 4 });
  assert.deepEqual(
    first.sessions.map((s) => s.name),
    ["s9", "s8", "s7", "s6"],
  );
  // s2 becomes the most active, s5 is deleted, s10 is new: the next page goes on after s6.
  index.put(record("s2", 99_000, "t2"));
  index.remove("s5");
  index.put(record("s10", 98_000, "t10"));
  const second = index.page({ limit: 4, cursor: first.nextCursor ?? undefined });
  assert.deepEqual(
    second.sessions.map((s) => s.name),
    ["s4", "s3", "s1", "s0"],
  );
  assert.equal(second.nextCursor, null);
  assert.throws(() => index.page({ limit: 4, cursor: "bm90IG91cnM" }), InvalidCursorError);
  assert.throws(() => index.page({ limit: 4, cursor: "%%%" }), InvalidCursorError);
});

test("index: the filter matches titles case-insensitively, across pages", () => {
  const index = new SessionIndex();
  for (let i = 0; i < 30; i++) {
    index.put(record(`s${i}`, 1000 + i, i % 3 === 0 ? `Fix the TOKENIZER ${i}` : `other ${i}`));
  }
  const first = index.page({ limit: 4, query: "tokenizer" });
  assert.deepEqual(
    first.sessions.map((s) => s.name),
    ["s27", "s24", "s21", "s18"],
  );
  const rest = index.page({
    limit: 100,
    query: "Tokenizer",
    cursor: first.nextCursor ?? undefined,
  });
  assert.equal(rest.sessions.length, 6);
  assert.equal(rest.nextCursor, null);
  assert.equal(index.page({ limit: 5, query: "nothing like it" }).sessions.length, 0);
});

test("store: scans the sessions directory, saves its index, and a new store reuses it", async () => {
  const root = tempDir();
  try {
    for (let i = 0; i < 5; i++) {
      writePiSession(join(root, `s${i}`), { cwd: root, turns: 2 + i, firstPrompt: `Task ${i}` });
    }
    mkdirSync(join(root, "not a session name"));
    writeFileSync(join(root, "stray.txt"), "x");
    const options = {
      sessionsDir: root,
      isSessionName,
      logger: silentLogger,
      rescanMs: 60_000,
      saveDelayMs: 10,
    };
    const store = new SessionStore(options);
    await store.ready;
    const page = store.page({ limit: 10 });
    assert.deepEqual(page.sessions.map((s) => s.name).sort(), ["s0", "s1", "s2", "s3", "s4"]);
    assert.equal(store.summary("s3")?.title, "Task 3");
    assert.equal(store.summary("s3")?.messageCount, 12, "five turns, the fifth with a tool");
    await store.close();
    const saved = JSON.parse(readFileSync(join(root, INDEX_FILE), "utf8")) as {
      directories: DirectoryRecord[];
    };
    assert.equal(saved.directories.length, 5);
    assert.equal(statSync(join(root, INDEX_FILE)).mode & 0o777, 0o600);

    // The saved digests stand in for the files: a digest that no longer matches a file's bytes
    // (same size and mtime) shows it was not read again.
    const file = saved.directories.find((d) => d.name === "s0")?.files[0];
    assert.ok(file?.digest);
    const tampered = {
      ...saved,
      directories: saved.directories.map((d) =>
        d.name === "s0"
          ? {
              ...d,
              files: [{ ...file, digest: { ...file.digest, firstUserText: "from the index" } }],
            }
          : d,
      ),
    };
    writeFileSync(join(root, INDEX_FILE), JSON.stringify(tampered));
    const again = new SessionStore(options);
    await again.ready;
    assert.equal(again.summary("s0")?.title, "from the index");
    await again.close();

    // A damaged index file is ignored: the files are read again.
    writeFileSync(join(root, INDEX_FILE), "{ torn");
    const rebuilt = new SessionStore(options);
    await rebuilt.ready;
    assert.equal(rebuilt.summary("s0")?.title, "Task 0");
    await rebuilt.close();
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test("store: damaged sessions are listed with a reason, and their files are left alone", async () => {
  const root = tempDir();
  try {
    const good = writePiSession(join(root, "mixed"), { cwd: root, turns: 2, firstPrompt: "Kept" });
    writeFileSync(join(root, "mixed", "zz-notes.jsonl"), '{"note":"not pi"}\n');
    const truncated = writePiSession(join(root, "truncated"), { cwd: root, turns: 3 });
    const bytes = readFileSync(truncated.path);
    writeFileSync(truncated.path, bytes.subarray(0, bytes.length - 30));
    mkdirSync(join(root, "foreign"));
    writeFileSync(join(root, "foreign", "x.jsonl"), "hello\n");
    symlinkSync(join(root, "loop"), join(root, "loop"));
    mkdirSync(join(root, "linked"));
    symlinkSync(join(root, "linked", "self.jsonl"), join(root, "linked", "self.jsonl"));

    const store = new SessionStore({
      sessionsDir: root,
      isSessionName,
      logger: silentLogger,
      rescanMs: 60_000,
      saveDelayMs: 10,
    });
    await store.ready;
    const mixed = store.summary("mixed");
    assert.equal(mixed?.title, "Kept");
    assert.equal(mixed?.messageCount, good.messages);
    assert.equal(mixed?.damaged, "zz-notes.jsonl is not a pi session file");
    const cut = store.summary("truncated");
    assert.match(
      cut?.damaged ?? "",
      /^The last line of .+\.jsonl is incomplete \(pi stopped mid-write\)/,
    );
    assert.equal(cut?.messageCount, truncated.messages - 1);
    assert.equal(store.summary("foreign")?.damaged, "x.jsonl is not a pi session file");
    assert.equal(store.summary("foreign")?.messageCount, 0);
    assert.match(
      store.summary("loop")?.damaged ?? "",
      /^Cannot read the session directory: .*ELOOP/,
    );
    assert.match(store.summary("linked")?.damaged ?? "", /^Cannot read self\.jsonl: .*ELOOP/);
    await store.close();
    assert.deepEqual(readFileSync(truncated.path), bytes.subarray(0, bytes.length - 30));
    assert.equal(readFileSync(join(root, "foreign", "x.jsonl"), "utf8"), "hello\n");
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
