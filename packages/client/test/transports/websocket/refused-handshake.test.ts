import assert from "node:assert/strict";
import { test } from "node:test";
import { WebSocketCloseError } from "../../../src/transports/websocket/connection-state.ts";
import { failedHandshake } from "../../../src/transports/websocket/refused-handshake.ts";

test("failed handshake: no answer and refusals a retry may fix reconnect; a wrong token or session is final", () => {
  assert.deepEqual(failedHandshake("connect ECONNREFUSED"), {
    close: { code: 1006, reason: "connect ECONNREFUSED" },
  });
  const busy = failedHandshake("Unexpected server response: 503");
  assert.equal(busy.final, undefined);
  assert.equal(busy.close.code, 1006);
  assert.match(busy.close.reason, /HTTP 503/);
  for (const status of [400, 401, 403, 404]) {
    const { close, final } = failedHandshake(`Invalid status code: ${status} (wrong_token)`);
    assert.ok(final instanceof WebSocketCloseError, String(status));
    assert.equal(
      final.message,
      `the bridge refused the connection with HTTP ${status} (wrong_token)`,
    );
    assert.deepEqual({ code: final.code, reason: final.reason }, close);
  }
});
