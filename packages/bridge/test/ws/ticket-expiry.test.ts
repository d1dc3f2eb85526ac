/**
 * A socket never outlives its ticket (issue 18): the bridge closes it at the ticket's `exp` plus
 * the clock tolerance (4401, `ticket_expired`), and a message that arrives after that point (its
 * timer not run yet on a busy machine) never reaches pi.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { BridgeCloseCode } from "@pi-kit/protocol/bridge";
import type { WSContext } from "hono/ws";
import { DEFAULT_LIMITS } from "../../src/index.ts";
import { createCommandPolicy } from "../../src/security/command-policy.ts";
import type { Session } from "../../src/sessions/session.ts";
import { relayEvents } from "../../src/ws/relay.ts";
import { connect, type Rec } from "../helpers.ts";
import { mint, startTicketBridge, ticketKeys, withTicket } from "../ticket-helpers.ts";

test("expiry: a ticket's socket is closed at exp + the clock tolerance with 4401 ticket_expired", async () => {
  const keys = await ticketKeys();
  const bridge = await startTicketBridge(keys);
  try {
    const ticket = await mint(keys, { sub: "judy", sessionPrefix: "", expiresIn: 2 });
    const expiresAt = JSON.parse(atob(ticket.split(".")[1] as string)).exp * 1000;
    const client = await connect(withTicket(bridge, ticket), "short");
    const state = await client.request({ type: "get_state" }, 30_000);
    assert.equal(state.success, true, "usable before the expiry");
    const closed = await client.closed;
    // Never before the expiry plus the 5 s tolerance.
    assert.ok(Date.now() >= expiresAt + 5000, "closed before the ticket ran out");
    assert.equal(closed.code, BridgeCloseCode.Unauthorized);
    assert.equal((JSON.parse(closed.reason) as Rec).code, "ticket_expired");
    assert.ok(bridge.log.some((e) => e.event === "connection_expired"));
    // The session itself runs on (its grace period), without the expired viewer.
    assert.equal(bridge.bridge.sessions.get("_users/judy/short")?.info().viewers, 0);
  } finally {
    await bridge.dispose();
  }
});

test("expiry: a message arriving past the deadline is dropped and the socket closed, before pi sees it", () => {
  const written: string[] = [];
  const attached = new Set<unknown>();
  const session = {
    key: "_users/judy/s",
    dir: "/nonexistent",
    attach: (connection: unknown) => attached.add(connection),
    detach: (connection: unknown) => attached.delete(connection),
    takeControl: () => true,
    refusal: () => undefined,
    write: (line: string) => {
      written.push(line);
      return true;
    },
  } as unknown as Session;
  const closes: Array<{ code: number | undefined; reason: string | undefined }> = [];
  const sent: string[] = [];
  const ws = {
    raw: {},
    send: (line: string) => sent.push(line),
    close: (code?: number, reason?: string) => closes.push({ code, reason }),
  } as unknown as WSContext<unknown>;
  // The deadline moves under the connection, as time would pass with its timer not yet run.
  let closeAt = Date.now() + 3_600_000;
  const events = relayEvents({
    session,
    runtime: {
      upgrade: () => Promise.reject(new Error("unused")),
      bufferedAmount: () => 0,
      terminate: () => {},
    },
    policy: createCommandPolicy(),
    limits: DEFAULT_LIMITS,
    logger: () => {},
    origin: null,
    get closeAt() {
      return closeAt;
    },
  });
  events.onOpen?.(new Event("open"), ws);
  const message = (data: string) => events.onMessage?.(new MessageEvent("message", { data }), ws);
  message('{"type":"get_state","id":"1"}');
  assert.equal(written.length, 1, "before the deadline, records reach pi");
  closeAt = Date.now() - 1;
  // pi's output past the deadline does not go out either.
  const before = sent.length;
  (attached.values().next().value as { send(line: string): void }).send('{"type":"agent_start"}');
  assert.equal(sent.length, before, "a record went out past the deadline");
  message('{"type":"prompt","message":"too late","id":"2"}');
  assert.equal(written.length, 1, "a record past the deadline reached pi");
  assert.equal(closes[0]?.code, BridgeCloseCode.Unauthorized);
  assert.equal((JSON.parse(closes[0]?.reason ?? "{}") as Rec).code, "ticket_expired");
  assert.equal(attached.size, 0, "the connection is detached");
  events.onClose?.({ code: 4401, reason: "" } as CloseEvent, ws);
});
