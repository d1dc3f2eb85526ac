/**
 * Live, real pi (1.x and 0.73.1): the bridge loads pi-kit's permission extension into every pi.
 * The operator's default mode and allowed modes hold; the mode a controller sets reaches every
 * viewer, and one who joins later (the bridge replays the status); a watcher cannot change it;
 * it survives a restart of the bridge (pi's session file keeps it).
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { PERMISSION_STATUS_KEY, type PiClient, PiClientError } from "@pi-kit/client";
import { connectClient, lineVersions, startBridge, type TestBridge } from "../helpers.ts";

const modeOf = (client: PiClient): string | undefined =>
  client.session.getSnapshot().ui.statuses.get(PERMISSION_STATUS_KEY);

/** Resolves once `client` shows `mode`, looking again at every change of its session. */
function modeIs(client: PiClient, mode: string): Promise<void> {
  return new Promise((resolve) => {
    const check = (): boolean => {
      if (modeOf(client) !== mode) return false;
      resolve();
      return true;
    };
    if (check()) return;
    const off = client.session.subscribe(() => {
      if (check()) off();
    });
  });
}

/** The next notify pi sends `client`. */
function nextNotice(client: PiClient): Promise<string> {
  return new Promise((resolve) => {
    const off = client.on("extension_ui_request", (request) => {
      if (request.method !== "notify") return;
      off();
      resolve(request.message);
    });
  });
}

const PERMISSIONS = { mode: "auto-edits", allowed: ["ask", "auto-edits"] } as const;

for (const version of lineVersions) {
  describe(`pi ${version}: permission modes through the bridge`, { timeout: 120_000 }, () => {
    test("the operator's default and limit hold, every viewer sees the mode, a watcher cannot change it, a restart keeps it", async () => {
      // Outlives the first bridge (a test bridge's own goes with it).
      const sessionsDir = join(mkdtempSync(join(tmpdir(), "pi-kit-permissions-")), "sessions");
      let bridge: TestBridge = await startBridge({
        version,
        permissions: PERMISSIONS,
        sessionsDir,
      });
      try {
        const desk = await connectClient(bridge.url, bridge.token, "guarded");
        await modeIs(desk, "auto-edits");
        const phone = await connectClient(bridge.url, bridge.token, "guarded");
        // Set before the phone came: the bridge replayed it.
        assert.equal(modeOf(phone), "auto-edits");
        await assert.rejects(
          phone.prompt("/permissions full"),
          (error: unknown) => error instanceof PiClientError && error.code === "not_in_control",
        );

        const refused = nextNotice(desk);
        await desk.prompt("/permissions full");
        assert.match(await refused, /“full” is not allowed here; choose one of: ask, auto-edits/);
        assert.equal(modeOf(desk), "auto-edits");

        await desk.prompt("/permissions ask");
        await Promise.all([modeIs(desk, "ask"), modeIs(phone, "ask")]);
        // A message, so pi writes its session file.
        await desk.promptAndWait("[[text noted]]");
        await phone.close();
        await desk.close();

        await bridge.dispose();
        bridge = await startBridge({ version, permissions: PERMISSIONS, sessionsDir });
        const again = await connectClient(bridge.url, bridge.token, "guarded");
        await modeIs(again, "ask");
        await again.close();
      } finally {
        await bridge.dispose();
        rmSync(join(sessionsDir, ".."), { recursive: true, force: true });
      }
    });
  });
}
