/**
 * The upload API (issue 27) against a real bridge on this runtime's adapter, with a scripted pi
 * (no process: a socket in control is all an upload needs): bytes stored identical, chunk by
 * chunk, at `.pi-kit/uploads/{id}/{name}`, private and never executable; offsets checked and
 * resumed; the limits; names sanitised; only the socket in control uploads (a watcher and a
 * read-only ticket are refused); `--no-uploads`; a `.pi-kit` that is a link out is never followed;
 * and `BridgeUploads` resuming after a chunk lost to the network with the bytes identical.
 */
import assert from "node:assert/strict";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { BridgeUploads, SessionHistoryError } from "@pi-kit/client";
import type { UploadQuota, UploadStatus } from "@pi-kit/protocol/bridge";
import { BRIDGE_OWNER, sessionKey } from "../../src/principals/owner.ts";
import { SessionUploads, UNFINISHED_IDLE_MS } from "../../src/uploads/session-uploads.ts";
import { connect, idOf, startBridge, type TestBridge } from "../helpers.ts";
import { type ScriptedPi, scriptedPi } from "../scripted-session.ts";
import { mint, startTicketBridge, ticketKeys } from "../ticket-helpers.ts";

const limits = { maxFileBytes: 1024, maxFilesPerMessage: 2, maxSessionBytes: 1600 };

/** A bridge whose sessions run a scripted pi, without checkpoints: uploads need neither. */
function start(options: Parameters<typeof startBridge>[0] = {}): Promise<TestBridge> {
  return startBridge({
    checkpoints: false,
    spawn: async () => scriptedPi().transport,
    uploads: limits,
    ...options,
  });
}

/** The socket's own id, from the `bridge_control` record it got as it attached. */
type Answer = { status: number; body: Record<string, unknown> };

/** One call to the session's upload API as socket `id` with `credential`. */
async function call(
  bridge: TestBridge,
  path: string,
  init: {
    method?: string;
    id?: number;
    json?: unknown;
    bytes?: Uint8Array<ArrayBuffer>;
    credential?: string;
  },
): Promise<Answer> {
  const headers: Record<string, string> = {
    authorization: `Bearer ${init.credential ?? bridge.token}`,
  };
  if (init.id !== undefined) headers["x-pi-kit-connection"] = String(init.id);
  if (init.json !== undefined) headers["content-type"] = "application/json";
  if (init.bytes !== undefined) headers["content-type"] = "application/octet-stream";
  const response = await fetch(`${bridge.url}/api/sessions/work/uploads${path}`, {
    method: init.method ?? "GET",
    headers,
    ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
    ...(init.bytes !== undefined ? { body: init.bytes } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: text === "" ? {} : JSON.parse(text) };
}

const declare = (bridge: TestBridge, id: number, name: string, size: number) =>
  call(bridge, "", { method: "POST", id, json: { name, size } });

/** The error `promise` rejects with, a `SessionHistoryError`. */
async function refusal(promise: Promise<unknown>): Promise<SessionHistoryError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof SessionHistoryError, String(error));
    return error;
  }
  assert.fail("expected a refusal");
}

/** Every byte value, `times` over. */
function allBytes(times: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(256 * times);
  for (let i = 0; i < bytes.length; i++) bytes[i] = i % 256;
  return bytes;
}

test("uploads: chunks stored byte-identical and private, offsets checked and resumed, the limits", async () => {
  const bridge = await start();
  const ws = bridge.pi.workspace;
  try {
    const controller = await connect(bridge, "work");
    const id = await idOf(controller);
    const watcher = await connect(bridge, "work");
    const watcherId = await idOf(watcher);

    const empty = await call(bridge, "", {});
    assert.equal(empty.status, 200);
    assert.deepEqual(empty.body as unknown as UploadQuota, { limits, usedBytes: 0 });

    // A watcher, or a request naming no socket, cannot upload.
    for (const as of [watcherId, undefined]) {
      const refused = await call(bridge, "", {
        method: "POST",
        id: as,
        json: { name: "a", size: 1 },
      });
      assert.deepEqual([refused.status, refused.body.code], [403, "not_controller"]);
    }

    const content = allBytes(3);
    const posted = await declare(bridge, id, "../../bytes.bin", content.length);
    assert.equal(posted.status, 201);
    const upload = posted.body as unknown as UploadStatus;
    assert.match(upload.id, /^[A-Za-z0-9_-]{12}$/);
    assert.deepEqual(upload, {
      id: upload.id,
      name: "bytes.bin",
      path: `.pi-kit/uploads/${upload.id}/bytes.bin`,
      size: 768,
      received: 0,
      complete: false,
    });
    const first = await call(bridge, `/${upload.id}?offset=0`, {
      method: "PUT",
      id,
      bytes: content.subarray(0, 300),
    });
    assert.deepEqual([first.status, first.body.received, first.body.complete], [200, 300, false]);
    // The watcher cannot send bytes either.
    const watched = await call(bridge, `/${upload.id}?offset=300`, {
      method: "PUT",
      id: watcherId,
      bytes: content.subarray(300),
    });
    assert.deepEqual([watched.status, watched.body.code], [403, "not_controller"]);
    // A chunk at a stale offset is refused with where to resume; nothing is written.
    const stale = await call(bridge, `/${upload.id}?offset=0`, {
      method: "PUT",
      id,
      bytes: content.subarray(0, 300),
    });
    assert.deepEqual(
      [stale.status, stale.body.code, stale.body.received, stale.body.id],
      [409, "upload_offset_mismatch", 300, upload.id],
    );
    // Past the declared size: refused too.
    const past = await call(bridge, `/${upload.id}?offset=300`, {
      method: "PUT",
      id,
      bytes: new Uint8Array(500),
    });
    assert.deepEqual(
      [past.status, past.body.code, past.body.received],
      [409, "upload_offset_mismatch", 300],
    );
    const resumed = await call(bridge, `/${upload.id}`, {});
    assert.deepEqual(
      [resumed.status, resumed.body.received, resumed.body.complete],
      [200, 300, false],
    );
    // Unfinished, it counts at its declared size.
    assert.equal((await call(bridge, "", {})).body.usedBytes, 768);
    const last = await call(bridge, `/${upload.id}?offset=300`, {
      method: "PUT",
      id,
      bytes: content.subarray(300),
    });
    assert.deepEqual([last.status, last.body.received, last.body.complete], [200, 768, true]);

    const stored = join(ws, upload.path);
    assert.deepEqual(new Uint8Array(readFileSync(stored)), content, "byte-identical");
    assert.equal(statSync(stored).mode & 0o777, 0o600, "private, never executable");
    assert.equal(statSync(join(ws, ".pi-kit/uploads", upload.id)).mode & 0o777, 0o700);
    assert.equal(statSync(join(ws, ".pi-kit/uploads")).mode & 0o777, 0o700);
    assert.deepEqual(readdirSync(join(ws, ".pi-kit/uploads", upload.id)), ["bytes.bin"]);
    const done = await call(bridge, `/${upload.id}`, {});
    assert.deepEqual(done.body as unknown as UploadStatus, {
      ...upload,
      received: 768,
      complete: true,
    });
    const again = await call(bridge, `/${upload.id}?offset=768`, {
      method: "PUT",
      id,
      bytes: new Uint8Array(1),
    });
    assert.deepEqual([again.status, again.body.complete], [409, true]);

    // Unknown ids, and bodies that are no upload.
    for (const unknown of ["AAAAAAAAAAAA", "..%2F..%2Fetc"]) {
      const answer = await call(bridge, `/${unknown}`, {});
      assert.deepEqual([answer.status, answer.body.code], [404, "unknown_upload"]);
    }
    for (const body of [
      { name: 5, size: 1 },
      { name: "a", size: -1 },
      { name: "a", size: 1.5 },
      { name: "a", size: "3" },
      { name: "a" },
    ]) {
      const bad = await call(bridge, "", { method: "POST", id, json: body });
      assert.deepEqual([bad.status, bad.body.code], [400, "invalid_request"], JSON.stringify(body));
    }

    // The limits: per file, per session, unfinished at once.
    const large = await declare(bridge, id, "big.bin", 1025);
    assert.deepEqual([large.status, large.body.code], [413, "upload_too_large"]);
    const quota = await declare(bridge, id, "more.bin", 900);
    assert.deepEqual([quota.status, quota.body.code], [413, "upload_quota_exceeded"]);
    const one = await declare(bridge, id, "one.txt", 10);
    const two = await declare(bridge, id, "two.txt", 10);
    assert.deepEqual([one.status, two.status], [201, 201]);
    const three = await declare(bridge, id, "three.txt", 10);
    assert.deepEqual([three.status, three.body.code], [429, "too_many_uploads"]);
    assert.equal((await call(bridge, "", {})).body.usedBytes, 788);
    // A removed upload holds no place.
    const removed = await call(bridge, `/${one.body.id}`, { method: "DELETE", id });
    assert.equal(removed.status, 204);
    assert.equal(existsSync(join(ws, ".pi-kit/uploads", String(one.body.id))), false);
    assert.equal((await declare(bridge, id, "three.txt", 10)).status, 201);

    // Names: the last segment, never hidden or `..`, no control characters, cut keeping the extension.
    const names: [string, string][] = [
      ["../../x", "x"],
      ["a/b", "b"],
      ["C:\\Users\\me\\report.pdf", "report.pdf"],
      [".bashrc", "bashrc"],
      ["..", "file"],
      ["", "file"],
      ["   ", "file"],
      ["a\u0000b\u001b[31m\u007f.txt", "ab[31m.txt"],
      ["evil\u202Etxt.exe", "eviltxt.exe"],
      ["what?<>|.txt", "what____.txt"],
      ["con.txt", "_con.txt"],
    ];
    const long = `${"é".repeat(200)}.pdf`;
    await call(bridge, `/${two.body.id}`, { method: "DELETE", id });
    for (const [raw, safe] of [...names, [long, ""]] as [string, string][]) {
      const answer = await declare(bridge, id, raw, 0);
      assert.equal(answer.status, 201, raw);
      const named = answer.body as unknown as UploadStatus;
      assert.equal(named.complete, true, "an empty file is complete at once");
      if (raw === long) {
        assert.ok(named.name.endsWith(".pdf"), named.name);
        assert.ok(new TextEncoder().encode(named.name).length <= 120, named.name);
        assert.ok(named.name.startsWith("éé"));
      } else assert.equal(named.name, safe, JSON.stringify(raw));
      assert.ok(lstatSync(join(ws, named.path)).isFile(), "stored inside the workspace");
    }
    assert.equal(existsSync(join(ws, "..", "x")), false);
    assert.equal(existsSync(join(ws, "x")), false);
    await controller.close();
    await watcher.close();
  } finally {
    await bridge.dispose();
  }
});

test("uploads: BridgeUploads resumes a chunk lost to the network, the bytes identical; abort and errors are typed", async () => {
  const MiB = 1024 * 1024;
  const bridgeLimits = { ...limits, maxFileBytes: 3 * MiB, maxSessionBytes: 8 * MiB };
  const bridge = await start({ uploads: bridgeLimits });
  try {
    const controller = await connect(bridge, "work");
    const id = await idOf(controller);
    const content = allBytes(12);
    let puts = 0;
    // The third chunk reaches the bridge only in part, and its answer is lost.
    const flaky: typeof fetch = async (input, init) => {
      if (init?.method === "PUT" && ++puts === 3) {
        const half = (init.body as Blob).slice(0, 200);
        await fetch(input, { ...init, body: half });
        throw new TypeError("fetch failed");
      }
      return fetch(input, init);
    };
    const uploads = new BridgeUploads({
      baseUrl: bridge.url,
      session: "work",
      token: bridge.token,
      fetch: flaky,
      connectionId: () => id,
      chunkBytes: 512,
    });
    const progress: number[] = [];
    const file = new File([content], "all-bytes.bin");
    const status = await uploads.upload(file, {
      onProgress: (received) => progress.push(received),
    });
    assert.equal(status.complete, true);
    assert.deepEqual(new Uint8Array(readFileSync(join(bridge.pi.workspace, status.path))), content);
    assert.deepEqual(
      progress,
      [512, 1024, 1736, 2248, 2760, 3072],
      "resumed after the 200 bytes it had",
    );
    assert.deepEqual(await uploads.quota(), { limits: bridgeLimits, usedBytes: 3072 });

    // In the default 1 MiB chunks, on this runtime's adapter.
    const whole = new BridgeUploads({
      baseUrl: bridge.url,
      session: "work",
      token: bridge.token,
      connectionId: () => id,
    });
    const large = allBytes(10 * 1024);
    const chunks: number[] = [];
    const big = await whole.upload(new File([large], "large.bin"), {
      onProgress: (received) => chunks.push(received),
    });
    assert.deepEqual(chunks, [MiB, 2 * MiB, 2.5 * MiB]);
    assert.ok(
      Buffer.from(large).equals(readFileSync(join(bridge.pi.workspace, big.path))),
      "2.5 MiB stored byte-identical",
    );

    // Typed refusals carry the bridge's code.
    const tooLarge = await refusal(uploads.upload(new File([new Uint8Array(3 * MiB + 1)], "big")));
    assert.deepEqual(
      [tooLarge.code, tooLarge.status, tooLarge.hostCode],
      ["too_large", 413, "upload_too_large"],
    );
    const watcher = new BridgeUploads({
      baseUrl: bridge.url,
      session: "work",
      token: bridge.token,
    });
    const refused = await refusal(watcher.upload(file));
    assert.deepEqual([refused.code, refused.hostCode], ["forbidden", "not_controller"]);

    // Aborted between chunks: rejected `cancelled`.
    const abort = new AbortController();
    const cancelledUpload = uploads.upload(file, {
      signal: abort.signal,
      onProgress: () => abort.abort(),
    });
    const cancelled = await refusal(cancelledUpload);
    assert.deepEqual([cancelled.name, cancelled.code], ["SessionHistoryError", "cancelled"]);
    await controller.close();
  } finally {
    await bridge.dispose();
  }
});

test("uploads: a read-only ticket reads the quota but cannot upload", async () => {
  const keys = await ticketKeys();
  const bridge = await startTicketBridge(keys, {
    checkpoints: false,
    spawn: async () => scriptedPi().transport,
  });
  try {
    const alice = await mint(keys, { sub: "alice", sessionPrefix: "" });
    const reader = await mint(keys, { sub: "alice", sessionPrefix: "", readOnly: true });
    const controller = await connect({ wsUrl: bridge.wsUrl, token: alice }, "work");
    const id = await idOf(controller);
    const read = await call(bridge, "", { credential: reader });
    assert.equal(read.status, 200);
    const write = await call(bridge, "", {
      method: "POST",
      id,
      credential: reader,
      json: { name: "a", size: 1 },
    });
    assert.deepEqual([write.status, write.body.code], [403, "ticket_read_only"]);
    const allowed = await call(bridge, "", {
      method: "POST",
      id,
      credential: alice,
      json: { name: "a", size: 1 },
    });
    assert.equal(allowed.status, 201);
    await controller.close();
  } finally {
    await bridge.dispose();
  }
});

test("uploads: --no-uploads answers uploads_off; chunks pass CORS; a .pi-kit or .pi-kit/uploads that is a link is never followed", async () => {
  const off = await start({ uploads: false });
  try {
    const answer = await call(off, "", {});
    assert.deepEqual([answer.status, answer.body.code], [404, "uploads_off"]);
  } finally {
    await off.dispose();
  }
  const bridge = await start({ origins: ["https://app.example"] });
  const outside = mkdtempSync(join(tmpdir(), "pi-kit-uploads-outside-"));
  const ws = bridge.pi.workspace;
  try {
    // A page of an allowed origin may send chunks (PUT) naming its socket.
    const preflight = await fetch(`${bridge.url}/api/sessions/work/uploads/AAAAAAAAAAAA`, {
      method: "OPTIONS",
      headers: {
        origin: "https://app.example",
        "access-control-request-method": "PUT",
        "access-control-request-headers": "authorization,content-type,x-pi-kit-connection",
      },
    });
    await preflight.body?.cancel();
    assert.equal(preflight.headers.get("access-control-allow-origin"), "https://app.example");
    assert.match(preflight.headers.get("access-control-allow-methods") ?? "", /PUT/);
    assert.match(
      preflight.headers.get("access-control-allow-headers") ?? "",
      /X-Pi-Kit-Connection/i,
    );
    const controller = await connect(bridge, "work");
    const id = await idOf(controller);
    symlinkSync(outside, join(ws, ".pi-kit"));
    const linked = await declare(bridge, id, "a.txt", 0);
    assert.deepEqual([linked.status, linked.body.code], [404, "uploads_off"]);
    assert.deepEqual((await call(bridge, "", {})).body.code, "uploads_off");
    rmSync(join(ws, ".pi-kit"));
    mkdirSync(join(ws, ".pi-kit"));
    symlinkSync(outside, join(ws, ".pi-kit/uploads"));
    const nested = await declare(bridge, id, "a.txt", 0);
    assert.deepEqual([nested.status, nested.body.code], [404, "uploads_off"]);
    assert.deepEqual(readdirSync(outside), [], "nothing written outside the workspace");
    await controller.close();
  } finally {
    await bridge.dispose();
    rmSync(outside, { recursive: true, force: true });
  }
});

test("uploads: the controller uploads while pi is in a run (unlike an undo)", async () => {
  let pi: ScriptedPi | undefined;
  const bridge = await start({
    spawn: async () => {
      pi = scriptedPi();
      return pi.transport;
    },
  });
  try {
    const controller = await connect(bridge, "work");
    const id = await idOf(controller);
    pi?.write([JSON.stringify({ type: "agent_start" })]);
    await controller.waitFor((r) => r.type === "agent_start");
    assert.equal(bridge.bridge.sessions.get(sessionKey(BRIDGE_OWNER, "work"))?.inRun, true);
    const posted = await declare(bridge, id, "during-run.txt", 3);
    assert.equal(posted.status, 201);
    const sent = await call(bridge, `/${posted.body.id}?offset=0`, {
      method: "PUT",
      id,
      bytes: new TextEncoder().encode("abc") as Uint8Array<ArrayBuffer>,
    });
    assert.deepEqual([sent.status, sent.body.complete], [200, true]);
    await controller.close();
  } finally {
    await bridge.dispose();
  }
});

test("uploads: an unfinished upload no chunk came for in 15 minutes holds no place; limits are checked", async () => {
  const ws = mkdtempSync(join(tmpdir(), "pi-kit-uploads-idle-"));
  let now = 1_000_000;
  const uploads = new SessionUploads(
    { maxFilesPerMessage: 1 },
    async () => ws,
    () => now,
  );
  const key = sessionKey(BRIDGE_OWNER, "s");
  try {
    const first = await uploads.declare(key, { name: "a.txt", size: 5 });
    const refused = { code: "too_many_uploads" };
    await assert.rejects(uploads.declare(key, { name: "b.txt", size: 5 }), refused);
    now += UNFINISHED_IDLE_MS;
    await assert.rejects(uploads.declare(key, { name: "b.txt", size: 5 }), refused);
    now += 1;
    assert.equal((await uploads.declare(key, { name: "b.txt", size: 5 })).received, 0);
    await assert.rejects(uploads.status(key, first.id), { code: "unknown_upload" });
    assert.equal(existsSync(join(ws, ".pi-kit/uploads", first.id)), false);
    for (const bad of [{ maxFilesPerMessage: 0 }, { maxFileBytes: -1 }, { maxSessionBytes: 1.5 }])
      assert.throws(() => new SessionUploads(bad, async () => ws), { code: "invalid_options" });
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
});
