/**
 * Cluster mode, issue 27: an upload sent to a node that does not hold the session's lease is
 * forwarded to the one that does, chunks and status included, so its unfinished state (in that
 * node's memory) is always the one the request reaches; the file lands in the shared workspace
 * byte-identical. Real Redis; a scripted pi (a socket in control is all an upload needs).
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { BridgeUploads } from "@pi-kit/client";
import { connect, idOf, startBridge } from "../helpers.ts";
import { scriptedPi } from "../scripted-session.ts";
import { useRedis } from "./redis-fixture.ts";

const cluster = useRedis("pi-kit-cluster-up");
const { tempDir } = cluster;

test("cluster: an upload through the node without the lease is forwarded to its holder, chunk by chunk", {
  timeout: 120_000,
}, async () => {
  const sessionsDir = tempDir("sessions");
  const workspacesDir = tempDir("workspaces");
  const node = (token?: string) =>
    startBridge({
      sessionsDir,
      workspacesDir,
      checkpoints: false,
      spawn: async () => scriptedPi().transport,
      ...(token === undefined ? {} : { token }),
      cluster: { redisUrl: cluster.redis.url, leaseTtlMs: 3000, indexDir: tempDir("index") },
    });
  const a = await node();
  const b = await node(a.token);
  try {
    // The socket in control is on A, which holds the lease; the page uploads through B.
    const onA = await connect(a, "work");
    const id = await idOf(onA);
    const uploads = new BridgeUploads({
      baseUrl: b.url,
      session: "work",
      token: b.token,
      connectionId: () => id,
      chunkBytes: 100,
    });
    const content = Uint8Array.from({ length: 250 }, (_, i) => 255 - i);
    const progress: number[] = [];
    const status = await uploads.upload(new File([content], "shared.bin"), {
      onProgress: (received) => progress.push(received),
    });
    assert.deepEqual(progress, [100, 200, 250]);
    assert.deepEqual(
      new Uint8Array(readFileSync(join(workspacesDir, "work", status.path))),
      content,
    );
    assert.equal((await uploads.quota()).usedBytes, 250);
    await onA.close();
  } finally {
    await b.dispose();
    await a.dispose();
  }
});
