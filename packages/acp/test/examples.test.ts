/**
 * The README's example runs as shown: an agent embedded with `connectAcpAgent` on in-memory pipes,
 * a bridge behind it, and the ACP SDK's client as the editor.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { readmeExamples, runExample } from "../../../test-support/readme-examples.ts";

const examples = readmeExamples(new URL("../", import.meta.url));

test("README example embed.ts: a prompt through an embedded agent ends end_turn, and the session is listed", async () => {
  const lines = await runExample(examples.get("embed.ts") as string);
  assert.deepEqual(lines, ["end_turn: Echo: Say hello", "listed: true"]);
});
