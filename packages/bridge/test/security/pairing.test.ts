/**
 * Pairing tickets ("continue on another device"): minted only for a caller who may open the
 * session, redeemed once within their minute, for a credential with no more than the minter's
 * rights; with the static token and with per-user tickets, live with real pi.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { BridgeCloseCode } from "@pi-kit/protocol/bridge";
import { BridgeError } from "../../src/index.ts";
import { BRIDGE_ACCESS } from "../../src/principals/access.ts";
import { Pairings } from "../../src/security/pairing.ts";
import { connect, type Rec, type TestBridge } from "../helpers.ts";
import { api, mint, startTicketBridge, ticketKeys } from "../ticket-helpers.ts";

/** `POST /api/pair` as the other device sends it: no credential but the pairing ticket. */
async function redeem(bridge: TestBridge, ticket: string): Promise<Response> {
  return fetch(`${bridge.url}/api/pair`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ ticket }),
  });
}

const code = async (response: Response): Promise<unknown> => ((await response.json()) as Rec).code;

test("pairing: a ticket or its code is redeemed once, within its minute", () => {
  let now = 1_000_000;
  const pairings = new Pairings({ now: () => now });
  const first = pairings.mint(BRIDGE_ACCESS, "main");
  assert.match(first.code, /^[A-HJKMNP-Z2-9]{8}$/);
  assert.equal(first.expiresAt, now + 60_000);
  const paired = pairings.redeem(first.ticket);
  assert.equal(paired.session, "main");
  assert.equal(paired.readOnly, false);
  const access = pairings.accessOf(paired.credential);
  assert.equal(access?.allows("main"), true);
  assert.equal(access?.allows("other"), false, "a paired device opens that one session");
  for (const again of [first.ticket, first.code]) {
    assert.throws(
      () => pairings.redeem(again),
      (error: unknown) => error instanceof BridgeError && error.code === "pairing_used",
    );
  }

  // The short code, as typed on a phone: any case, with a dash.
  const second = pairings.mint(BRIDGE_ACCESS, "main");
  const typed = `${second.code.slice(0, 4).toLowerCase()}-${second.code.slice(4)}`;
  assert.equal(pairings.redeem(typed).session, "main");

  const late = pairings.mint(BRIDGE_ACCESS, "main");
  now += 60_000;
  for (let i = 0; i < 2; i++) {
    assert.throws(
      () => pairings.redeem(late.ticket),
      (error: unknown) => error instanceof BridgeError && error.code === "pairing_expired",
    );
  }
  assert.throws(
    () => pairings.redeem("ABCDEFGH"),
    (error: unknown) => error instanceof BridgeError && error.code === "pairing_unknown",
  );
  // A paired credential of a minter whose own never expires lasts 12 hours.
  now += 12 * 60 * 60_000;
  assert.equal(pairings.accessOf(paired.credential), undefined);
});

test("pairing: a minter's limits pass to the pair (read-only, its expiry), never more", () => {
  let now = 5_000;
  const pairings = new Pairings({ now: () => now });
  const minter = {
    owner: "_users/carol",
    allows: (name: string) => name === "shared",
    limited: true,
    readOnly: true,
    expiresAt: now + 30_000,
  };
  const ticket = pairings.mint(minter, "shared");
  assert.equal(ticket.readOnly, true);
  assert.equal(ticket.expiresAt, now + 30_000, "no longer than the minter's own credential");
  const paired = pairings.redeem(ticket.code);
  const access = pairings.accessOf(paired.credential);
  assert.equal(access?.readOnly, true);
  assert.equal(access?.owner, "_users/carol");
  now += 30_000;
  assert.equal(pairings.accessOf(paired.credential), undefined, "it ends with the minter's ticket");
});

test("pairing: minted only for a caller who may open the session, redeemed once, live", async () => {
  let skewMs = 0;
  const keys = await ticketKeys();
  const bridge = await startTicketBridge(keys, { pairing: { now: () => Date.now() + skewMs } });
  try {
    const created = await api(bridge, bridge.token, "/sessions", {
      method: "POST",
      body: { name: "main" },
    });
    assert.equal(created.status, 201);
    const anonymous = await fetch(`${bridge.url}/api/sessions/main/pair`, { method: "POST" });
    assert.equal(anonymous.status, 401);
    assert.equal(await code(anonymous), "missing_token");
    const unknown = await api(bridge, bridge.token, "/sessions/nope/pair", { method: "POST" });
    assert.equal(unknown.status, 404);

    // The static token: the phone gets that one session, with control.
    const minted = await api(bridge, bridge.token, "/sessions/main/pair", { method: "POST" });
    assert.equal(minted.status, 201);
    const ticket = (await minted.json()) as { ticket: string; code: string; readOnly: boolean };
    assert.equal(ticket.readOnly, false);
    const redeemed = await redeem(bridge, ticket.ticket);
    assert.equal(redeemed.status, 200);
    const { credential } = (await redeemed.json()) as { credential: string };
    const reused = await redeem(bridge, ticket.code);
    assert.equal(reused.status, 401);
    assert.equal(await code(reused), "pairing_used");
    const phone = await connect({ wsUrl: bridge.wsUrl, token: credential }, "main");
    const control = await phone.waitFor((r) => r.type === "bridge_control", 30_000);
    assert.ok(control);
    const state = await phone.request({ type: "get_state" }, 30_000);
    assert.equal(state.success, true);
    await phone.close();
    const elsewhere = await connect({ wsUrl: bridge.wsUrl, token: credential }, "other");
    assert.equal((await elsewhere.closed).code, BridgeCloseCode.Forbidden);
    assert.equal((await api(bridge, credential, "/sessions/main")).status, 200);
    assert.equal((await api(bridge, credential, "/sessions/other")).status, 403);
    const wrong = await api(bridge, "pkpaired_not-a-credential-at-all", "/sessions/main");
    assert.equal(wrong.status, 401);

    // Expiry: the bridge's clock a minute on.
    const late = (await (
      await api(bridge, bridge.token, "/sessions/main/pair", { method: "POST" })
    ).json()) as { ticket: string };
    skewMs = 60_001;
    const expired = await redeem(bridge, late.ticket);
    assert.equal(expired.status, 401);
    assert.equal(await code(expired), "pairing_expired");
    skewMs = 0;

    // Per-user tickets: a read-only ticket mints a read-only pair, and none for other sessions.
    const owner = await mint(keys, { sub: "carol", sessionPrefix: "" });
    const made = await api(bridge, owner, "/sessions", {
      method: "POST",
      body: { name: "shared" },
    });
    assert.equal(made.status, 201);
    const watcher = await mint(keys, { sub: "carol", sessions: ["shared"], readOnly: true });
    const notHis = await api(bridge, watcher, "/sessions/other/pair", { method: "POST" });
    assert.equal(notHis.status, 403);
    assert.equal(await code(notHis), "session_not_in_ticket");
    const viewerPair = (await (
      await api(bridge, watcher, "/sessions/shared/pair", { method: "POST" })
    ).json()) as { ticket: string; readOnly: boolean };
    assert.equal(viewerPair.readOnly, true);
    const viewer = (await (await redeem(bridge, viewerPair.ticket)).json()) as {
      credential: string;
      readOnly: boolean;
    };
    assert.equal(viewer.readOnly, true);
    const rename = await api(bridge, viewer.credential, "/sessions/shared", {
      method: "PATCH",
      body: { title: "renamed" },
    });
    assert.equal(rename.status, 403);
    assert.equal(await code(rename), "ticket_read_only");
    assert.equal((await api(bridge, viewer.credential, "/sessions/shared")).status, 200);
    // Carol's pair never reaches the bridge's own session of the same name.
    assert.equal((await api(bridge, viewer.credential, "/sessions/main")).status, 403);
  } finally {
    await bridge.dispose();
  }
});
