import assert from "node:assert/strict";
import { test } from "node:test";
import { renewalDelay, ticketExpiry } from "../../../src/transports/websocket/ticket-renewal.ts";
import { UnansweredRequests } from "../../../src/transports/websocket/unanswered-requests.ts";

const part = (value: unknown): string =>
  btoa(JSON.stringify(value)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");

test("ticket renewal: exp is read from a JWT's payload (unverified); anything else has none", () => {
  assert.equal(ticketExpiry(`${part({ alg: "HS256" })}.${part({ exp: 1700000000 })}.sig`), 1.7e12);
  // base64url with characters that differ from base64, and no padding.
  const sub = "ü?>~~";
  assert.equal(ticketExpiry(`${part({})}.${part({ sub, exp: 5 })}.`), 5000);
  for (const token of [
    "a-static-token",
    `${part({})}.${part({ exp: "soon" })}.x`,
    `${part({})}.${part({})}.x`,
    "a.b.c",
    `${part({})}.${part({ exp: 5 })}`,
  ]) {
    assert.equal(ticketExpiry(token), undefined, token);
  }
});

test("ticket renewal: a quarter of the remaining life before the expiry, at most a minute; due at once when late", () => {
  const now = 1_000_000;
  assert.equal(renewalDelay(now + 2000, now), 1500);
  assert.equal(renewalDelay(now + 3000, now), 2250);
  assert.equal(renewalDelay(now + 600_000, now), 540_000);
  assert.equal(renewalDelay(now, now), 0);
  assert.equal(renewalDelay(now - 5000, now), 0);
});

test("ticket renewal: waits for the socket's unanswered requests (not dialog answers), then goes at once", () => {
  const unanswered = new UnansweredRequests();
  const renewed: string[] = [];
  unanswered.whenIdle(() => renewed.push("idle at once"));
  unanswered.sent('{"type":"get_state","id":"a"}');
  unanswered.sent('{"id":7,"type":"prompt","message":"hi"}');
  unanswered.sent('{"type":"extension_ui_response","id":"dialog-1","confirmed":true}');
  unanswered.sent('{"type":"abort"}');
  assert.equal(unanswered.size, 2);
  unanswered.whenIdle(() => renewed.push("after the answers"));
  // Events, another request's id in text, and garbage change nothing.
  unanswered.received('{"type":"message_update","text":"\\"id\\":\\"a\\" \\"response\\""}');
  unanswered.received('{"type":"response","id":"zzz","success":true}');
  unanswered.received('{not json, "response"');
  unanswered.received('{"id":"a","type":"response","command":"get_state","success":true}');
  assert.deepEqual(renewed, ["idle at once"]);
  unanswered.received('{"type":"response","id":"7","command":"prompt","success":true}');
  assert.deepEqual(renewed, ["idle at once", "after the answers"]);
  // A socket that goes forgets what it was owed, and the wait with it.
  unanswered.sent('{"type":"get_state","id":"b"}');
  unanswered.whenIdle(() => renewed.push("never"));
  unanswered.clear();
  unanswered.received('{"type":"response","id":"b","success":true}');
  assert.equal(unanswered.size, 0);
  assert.deepEqual(renewed, ["idle at once", "after the answers"]);
});
