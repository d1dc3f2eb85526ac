import assert from "node:assert/strict";
import { test } from "node:test";
import { HandshakeDeadline } from "../../../src/transports/websocket/handshake-deadline.ts";

test("handshake deadline: the connect timeout, held to the keepalive window only after a drop for silence", () => {
  assert.equal(new HandshakeDeadline().ms, 10_000);
  const deadline = new HandshakeDeadline(8000);
  deadline.keepaliveWindow(2500);
  assert.equal(deadline.ms, 8000, "a live but slow handshake keeps the whole timeout");
  deadline.silenced();
  assert.equal(deadline.ms, 2500);
  deadline.opened();
  assert.equal(deadline.ms, 8000);
  // A bridge that never pinged gives no window to hold a handshake to.
  const quiet = new HandshakeDeadline(8000);
  quiet.silenced();
  assert.equal(quiet.ms, 8000);
  // The window never lengthens the timeout.
  deadline.keepaliveWindow(60_000);
  deadline.silenced();
  assert.equal(deadline.ms, 8000);
});
