/**
 * Live, real pi (1.x and 0.73.1): what pi writes to stderr reaches every socket of the session as
 * a `bridge_pi_stderr` record. pi 1.6 loads extensions again when a session is replaced and
 * reports one that fails only on stderr, once; 0.73.1 keeps the extensions it started with and
 * writes nothing. Runs once (Node 20) in CI: the runtimes' reading of pi's stderr is the client's
 * child-process transport, which client test/transports/child-process/pi-stderr.test.ts covers on each.
 */
import assert from "node:assert/strict";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { connect, lineVersions, type Rec, startBridge, type TestClient } from "../helpers.ts";

const probe = fileURLToPath(new URL("../fixtures/stderr-probe.ts", import.meta.url));

const stderrRecords = (client: TestClient): Rec[] =>
  client.records.filter((r) => r.type === "bridge_pi_stderr");

/** Waits for the next `bridge_pi_stderr` after the `seen` ones, and returns its text. */
async function nextStderr(client: TestClient, seen: number): Promise<string> {
  let count = 0;
  const record = await client.waitFor(
    (r) => r.type === "bridge_pi_stderr" && ++count > seen,
    30_000,
  );
  return String(record.text);
}

for (const version of lineVersions) {
  test(`live pi ${version}: pi's stderr reaches every socket as bridge_pi_stderr`, {
    timeout: 120_000,
  }, async () => {
    const bridge = await startBridge({ version, extensions: [probe] });
    const desk = await connect(bridge, "talk");
    try {
      await desk.waitFor((r) => r.type === "bridge_control");
      const phone = await connect(bridge, "talk");
      await phone.waitFor((r) => r.type === "bridge_control");

      // An extension's own stderr: one record per write, to the controller and the watcher.
      await desk.request({ type: "prompt", message: "/stderr first line\nsecond line" });
      assert.equal(await nextStderr(desk, 0), "first line\nsecond line");
      assert.equal(await nextStderr(phone, 0), "first line\nsecond line");

      // The extension cannot load any more: a new session reports it (1.6), once.
      writeFileSync(join(bridge.pi.workspace, "stderr-probe-fails"), "");
      const answer = await desk.request({ type: "new_session" });
      assert.equal(answer.success, true);
      if (version === "1") {
        const text = await nextStderr(phone, 1);
        assert.match(
          text,
          /^Error: Failed to load extension ".*stderr-probe\.ts".*cannot load now/,
        );
        assert.equal(await nextStderr(desk, 1), text);
      }
      // Nothing else came: with the extension loadable again, the next record is its next write.
      rmSync(join(bridge.pi.workspace, "stderr-probe-fails"));
      assert.equal((await desk.request({ type: "new_session" })).success, true);
      const seen = version === "1" ? 2 : 1;
      await desk.request({ type: "prompt", message: "/stderr after" });
      assert.equal(await nextStderr(desk, seen), "after");
      assert.equal(await nextStderr(phone, seen), "after");
      assert.equal(stderrRecords(desk).length, seen + 1);
      assert.equal(stderrRecords(phone).length, seen + 1);
      await phone.close();
    } finally {
      await desk.close();
      await bridge.dispose();
    }
  });
}
