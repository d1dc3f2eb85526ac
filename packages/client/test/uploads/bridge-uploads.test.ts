/**
 * BridgeUploads against a fake bridge (an in-memory upload API behind a fake fetch): the requests
 * it makes, chunk by chunk with progress; a chunk lost to the network resumed where the bridge's
 * copy ends; a 409 resumed at the offset its body gives; abort; typed errors with the bridge's
 * code. Its run against a real bridge is in the bridge's tests (test/uploads.test.ts).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { BridgeUploads, SessionHistoryError, type UploadStatus } from "../../src/index.ts";

interface Call {
  method: string;
  url: URL;
  headers: Record<string, string>;
}

/** An in-memory bridge upload API; `fault` may fail a call before (or instead of) answering it. */
function fakeBridge(
  fault?: (call: Call, index: number) => Response | Error | "partial" | undefined,
) {
  const calls: Call[] = [];
  const stored = new Map<string, { status: UploadStatus; bytes: Uint8Array }>();
  const json = (body: unknown, status = 200): Response =>
    new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const call: Call = {
      method: init?.method ?? "GET",
      url: new URL(String(input)),
      headers: { ...(init?.headers as Record<string, string>) },
    };
    calls.push(call);
    const injected = fault?.(call, calls.length - 1);
    if (injected instanceof Response) return injected;
    if (injected instanceof Error) throw injected;
    const id = call.url.pathname.split("/uploads")[1]?.slice(1) ?? "";
    if (call.method === "POST") {
      const { name, size } = JSON.parse(String(init?.body)) as { name: string; size: number };
      const status = {
        id: `id${stored.size}`,
        name,
        path: `.pi-kit/uploads/id${stored.size}/${name}`,
        size,
        received: 0,
        complete: size === 0,
      };
      stored.set(status.id, { status, bytes: new Uint8Array(size) });
      return json(status, 201);
    }
    const upload = stored.get(id);
    if (upload === undefined) return json({ error: "No upload", code: "unknown_upload" }, 404);
    if (call.method === "GET") return json(upload.status);
    if (call.method === "DELETE") {
      stored.delete(id);
      return new Response(null, { status: 204 });
    }
    const offset = Number(call.url.searchParams.get("offset"));
    let bytes = new Uint8Array(
      await ((init?.body as Blob | undefined) ?? new Blob()).arrayBuffer(),
    );
    if (offset !== upload.status.received)
      return json({ error: "offset", code: "upload_offset_mismatch", ...upload.status }, 409);
    if (injected === "partial") bytes = bytes.subarray(0, Math.floor(bytes.length / 2));
    upload.bytes.set(bytes, offset);
    const received = offset + bytes.length;
    upload.status = { ...upload.status, received, complete: received === upload.status.size };
    if (injected === "partial") throw new TypeError("fetch failed");
    return json(upload.status);
  }) as typeof globalThis.fetch;
  return { fetch, calls, stored };
}

const content = (): Uint8Array<ArrayBuffer> =>
  Uint8Array.from({ length: 1000 }, (_, i) => (i * 7) % 256);

function uploadsOf(fetch: typeof globalThis.fetch, retries?: number): BridgeUploads {
  return new BridgeUploads({
    baseUrl: "http://bridge.test/pi/",
    session: "a b",
    token: "t".repeat(43),
    fetch,
    connectionId: () => 7,
    chunkBytes: 300,
    ...(retries === undefined ? {} : { retries }),
  });
}

test("BridgeUploads: declared, then sent in chunks at the bridge's offset, with progress", async () => {
  const bridge = fakeBridge();
  const progress: [number, number][] = [];
  const file = new File([content()], "notes.bin");
  const status = await uploadsOf(bridge.fetch).upload(file, {
    onProgress: (received, size) => progress.push([received, size]),
  });
  assert.deepEqual(progress, [
    [300, 1000],
    [600, 1000],
    [900, 1000],
    [1000, 1000],
  ]);
  assert.equal(status.complete, true);
  assert.deepEqual(bridge.stored.get(status.id)?.bytes, content());
  assert.deepEqual(
    bridge.calls.map((c) => `${c.method} ${c.url.pathname}${c.url.search}`),
    [
      "POST /pi/api/sessions/a%20b/uploads",
      "PUT /pi/api/sessions/a%20b/uploads/id0?offset=0",
      "PUT /pi/api/sessions/a%20b/uploads/id0?offset=300",
      "PUT /pi/api/sessions/a%20b/uploads/id0?offset=600",
      "PUT /pi/api/sessions/a%20b/uploads/id0?offset=900",
    ],
  );
  for (const call of bridge.calls) {
    assert.equal(call.headers["X-Pi-Kit-Connection"], "7", "the controlling socket is named");
    assert.equal(call.headers.authorization, `Bearer ${"t".repeat(43)}`);
  }
  assert.equal(bridge.calls[1]?.headers["content-type"], "application/octet-stream");
});

test("BridgeUploads: a chunk lost to the network resumes where the bridge's copy ends; bytes identical", async () => {
  // The second chunk reaches the bridge in part and its answer is lost; then a 503.
  const bridge = fakeBridge((_call, index) =>
    index === 2
      ? "partial"
      : index === 4
        ? Response.json({ error: "busy", code: "closing" }, { status: 503 })
        : undefined,
  );
  const progress: number[] = [];
  const status = await uploadsOf(bridge.fetch).upload(new File([content()], "n.bin"), {
    onProgress: (received) => progress.push(received),
  });
  assert.deepEqual(bridge.stored.get(status.id)?.bytes, content());
  assert.deepEqual(
    bridge.calls.map((c) => `${c.method} ${c.url.search}`),
    [
      "POST ",
      "PUT ?offset=0",
      "PUT ?offset=300",
      "GET ",
      "PUT ?offset=450",
      "GET ",
      "PUT ?offset=450",
      "PUT ?offset=750",
    ],
  );
  assert.deepEqual(progress, [300, 750, 1000]);
});

test("BridgeUploads: a 409 resumes at the offset its body gives, without asking", async () => {
  let skewed = false;
  const bridge = fakeBridge((call) => {
    // The bridge already has the first chunk (an answer lost earlier): a stale offset.
    if (call.method === "PUT" && !skewed) {
      skewed = true;
      return Response.json(
        {
          error: "offset",
          code: "upload_offset_mismatch",
          id: "id0",
          name: "n.bin",
          path: "p",
          size: 1000,
          received: 0,
          complete: false,
        },
        { status: 409 },
      );
    }
    return undefined;
  });
  const status = await uploadsOf(bridge.fetch).upload(new File([content()], "n.bin"));
  assert.equal(status.complete, true);
  assert.equal(bridge.calls.filter((c) => c.method === "GET").length, 0);
  assert.deepEqual(bridge.stored.get(status.id)?.bytes, content());
});

test("BridgeUploads: typed errors carry the bridge's code; retries run out; abort rejects cancelled", async () => {
  const refusing = fakeBridge((call) =>
    call.method === "POST"
      ? Response.json({ error: "At most 10", code: "too_many_uploads" }, { status: 429 })
      : undefined,
  );
  const many = await uploadsOf(refusing.fetch)
    .upload(new File(["x"], "x"))
    .catch((e: unknown) => e);
  assert.ok(many instanceof SessionHistoryError);
  assert.deepEqual(
    [many.code, many.status, many.hostCode],
    ["rate_limited", 429, "too_many_uploads"],
  );

  const down = fakeBridge((call) =>
    call.method === "POST" ? undefined : new TypeError("fetch failed"),
  );
  const lost = await uploadsOf(down.fetch, 2)
    .upload(new File([content()], "x"))
    .catch((e: unknown) => e);
  assert.ok(lost instanceof SessionHistoryError);
  assert.equal(lost.code, "network");
  assert.equal(
    down.calls.filter((c) => c.method === "PUT").length,
    1,
    "then two status reads failed",
  );
  assert.equal(down.calls.at(-1)?.method, "DELETE", "the given-up upload is removed");

  const bridge = fakeBridge();
  const abort = new AbortController();
  const aborted = await uploadsOf(bridge.fetch)
    .upload(new File([content()], "x"), { signal: abort.signal, onProgress: () => abort.abort() })
    .catch((e: unknown) => e);
  assert.ok(aborted instanceof SessionHistoryError);
  assert.equal(aborted.code, "cancelled");
  assert.equal(bridge.calls.filter((c) => c.method === "PUT").length, 1);

  const quota = fakeBridge((call) =>
    call.method === "GET"
      ? Response.json({
          limits: { maxFileBytes: 5, maxFilesPerMessage: 2, maxSessionBytes: 9 },
          usedBytes: 3,
        })
      : undefined,
  );
  assert.deepEqual(await uploadsOf(quota.fetch).quota(), {
    limits: { maxFileBytes: 5, maxFilesPerMessage: 2, maxSessionBytes: 9 },
    usedBytes: 3,
  });
});
