/** Failures as JSON-RPC errors. */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { SessionHistoryError } from "@pi-kit/client";
import { requestError } from "../src/errors.ts";

describe("errors", () => {
  test("failures as JSON-RPC errors", () => {
    const refused = requestError(
      new SessionHistoryError("unauthorized", "bad token", { status: 401 }),
    );
    assert.equal(refused.code, -32000);
    assert.match(refused.message, /the bridge refused the token: bad token/);
    const noToken = requestError(
      new SessionHistoryError("unauthorized", "The token function failed", {
        cause: new Error("the ticket command failed: nope"),
      }),
    );
    assert.match(noToken.message, /no token for the bridge: the ticket command failed: nope/);
    assert.equal(requestError(new Error("boom")).code, -32603);
  });
});
