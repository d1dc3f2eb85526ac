/** The smoke suite shared by the per-version smoke test files. */

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  type LaunchedPi,
  launchPi,
  type ModelServer,
  type PiVersion,
  startModelServer,
} from "../../src/index.ts";

/** Generous but bounded: pi 0.73.1 on a busy 2-core box takes about a second to start. */
const TIMEOUT_MS = 30_000;

/** Spawns real pi of `version`, checks `get_state`, and runs a bash tool call to the end. */
export function smokeSuite(version: PiVersion, endEvent: "agent_settled" | "agent_end"): void {
  describe(`pi ${version} smoke`, { timeout: 90_000 }, () => {
    let server: ModelServer;
    let pi: LaunchedPi | undefined;

    before(async () => {
      server = await startModelServer();
      pi = await launchPi({ version, baseUrl: server.baseUrl, uiProbe: true });
    });
    after(async () => {
      await pi?.close();
      await server?.close();
    });

    test("answers get_state with the scripted model", async () => {
      assert.ok(pi);
      const response = await pi.request({ type: "get_state" }, { timeoutMs: TIMEOUT_MS });
      const answeredAt = pi.records.find((r) => r.json === response)?.t;
      console.log(`pi ${pi.spec.piVersion}: get_state answered ${answeredAt} ms after spawn`);
      assert.equal(response.success, true);
      const data = response.data as {
        model: { provider: string; id: string };
        isStreaming: boolean;
      };
      assert.equal(data.model.provider, "pikit");
      assert.equal(data.model.id, "scripted");
      assert.equal(data.isStreaming, false);
    });

    test(`a prompt that calls bash runs the tool and ends with ${endEvent}`, async () => {
      assert.ok(pi);
      const since = pi.mark();
      const response = await pi.request(
        { type: "prompt", message: "[[bash echo hi]]" },
        { timeoutMs: TIMEOUT_MS },
      );
      assert.equal(response.success, true);
      const end = await pi.waitFor((r) => r.type === "tool_execution_end", {
        since,
        timeoutMs: TIMEOUT_MS,
      });
      assert.equal(end.toolName, "bash");
      assert.equal(end.isError, false);
      assert.match(JSON.stringify(end.result), /hi\\n/);
      await pi.waitForType(endEvent, { since, timeoutMs: TIMEOUT_MS });
      const finalText = await pi.request({ type: "get_last_assistant_text" });
      assert.deepEqual(finalText.data, { text: "Tool bash returned: hi" });
      const chats = server.requests.filter((r) => r.path === "/v1/chat/completions");
      assert.equal(chats.length, 2, "one request for the tool call, one for the final answer");
      assert.equal(chats[0]?.body?.stream, true);
    });

    test("loads the ui-probe extension and round-trips a confirm dialog", async () => {
      assert.ok(pi);
      const since = pi.mark();
      const response = pi.request(
        { type: "prompt", message: "/ui confirm" },
        { timeoutMs: TIMEOUT_MS },
      );
      const dialog = await pi.waitFor(
        (r) => r.type === "extension_ui_request" && r.method === "confirm",
        { since, timeoutMs: TIMEOUT_MS },
      );
      pi.send({ type: "extension_ui_response", id: dialog.id, confirmed: true });
      const result = await pi.waitFor(
        (r) => r.type === "extension_ui_request" && r.method === "notify",
        { since, timeoutMs: TIMEOUT_MS },
      );
      assert.equal(result.message, "result: confirm=true");
      assert.equal((await response).success, true);
    });
  });
}
