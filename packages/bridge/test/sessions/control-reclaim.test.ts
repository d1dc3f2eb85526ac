/**
 * Live, real pi 1.x: after a bridge restart on the same sessions directory, the viewer that was
 * in control gets control back when it reconnects with its viewer key, whoever comes back first;
 * the others, and a connection with a key that never controlled, watch meanwhile.
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { BridgeCloseCode } from "@pi-kit/protocol/bridge";
import { viewerIdentity } from "../../src/sessions/control-memory.ts";
import { connect, idOf, type Rec, startBridge, type TestBridge } from "../helpers.ts";

/** A socket on `name` presenting viewer key `key`. */
function viewerOn(bridge: TestBridge, name: string, key: string) {
  return connect({ token: bridge.token, wsUrl: (n) => `${bridge.wsUrl(n)}?viewer=${key}` }, name);
}

type Client = Awaited<ReturnType<typeof viewerOn>>;

/** The id the bridge gave `client` (its first control record's `you`). */
/** Waits until `client` hears that the connection `id` (or nobody, `null`) controls. */
function hearsController(client: Client, id: number | null): Promise<Rec> {
  return client.waitFor(
    (r) => r.type === "bridge_control" && ((r.controller as Rec | null)?.id ?? null) === id,
    30_000,
  );
}

const DESK = "desk-key-0123456789abcdef";
const PHONE = "phone-key-0123456789abcdef";

test("control after a restart: the viewer that was in control gets it back, the others watch, a forged key gets nothing", async () => {
  const root = mkdtempSync(join(tmpdir(), "pi-kit-control-reclaim-"));
  const sessionsDir = join(root, "sessions");
  let bridge = await startBridge({ sessionsDir });
  try {
    const desk = await viewerOn(bridge, "shared", DESK);
    const deskId = await idOf(desk);
    await hearsController(desk, deskId);
    const phone = await viewerOn(bridge, "shared", PHONE);
    const phoneId = await idOf(phone);
    // The phone, which attached second, takes control: it is the one to come back to.
    phone.send({ type: "bridge_take_control" });
    await hearsController(desk, phoneId);
    await hearsController(phone, phoneId);

    await bridge.dispose();
    await Promise.all([desk.closed, phone.closed]);
    bridge = await startBridge({ sessionsDir, limits: { controlReclaimMs: 120_000 } });

    // The desk comes back first: it watches, and so does a key that never controlled.
    const deskAgain = await viewerOn(bridge, "shared", DESK);
    const deskAgainId = await idOf(deskAgain);
    assert.equal((await hearsController(deskAgain, null)).viewers, 1);
    const forged = await viewerOn(bridge, "shared", "forged-key-0123456789abcdef");
    await idOf(forged);
    await hearsController(forged, null);
    const refused = await forged.request({ type: "prompt", message: "[[text forged]]" });
    assert.equal(refused.code, "not_in_control");
    deskAgain.send({ type: "get_state", id: "s" });
    await deskAgain.waitFor((r) => r.type === "response" && r.id === "s");
    assert.equal(bridge.bridge.sessions.get("shared")?.info().controller, null);

    // The phone comes back last and has control again; the desk and the forged key watch.
    const phoneAgain = await viewerOn(bridge, "shared", PHONE);
    const phoneAgainId = await idOf(phoneAgain);
    await hearsController(phoneAgain, phoneAgainId);
    await hearsController(deskAgain, phoneAgainId);
    await hearsController(forged, phoneAgainId);
    assert.notEqual(deskAgainId, phoneAgainId);
    const sent = await phoneAgain.request({ type: "get_state" });
    assert.equal(sent.success, true);
    const deskRefused = await deskAgain.request({ type: "abort" });
    assert.equal(deskRefused.code, "not_in_control");
    // Deleting the session forgets who controlled it: a new one of that name waits for nobody.
    const remembered = join(sessionsDir, ".control", "shared");
    assert.equal(existsSync(remembered), true, "kept where the protocol document says");
    const deleted = await fetch(`${bridge.url}/api/sessions/shared`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${bridge.token}` },
    });
    assert.equal(deleted.status, 204);
    assert.equal(existsSync(remembered), false);
    for (const client of [deskAgain, forged, phoneAgain]) await client.closed;
  } finally {
    await bridge.dispose();
    rmSync(root, { recursive: true, force: true });
  }
});

test("control after a restart: a viewer key is bound to its principal and must look unguessable", async () => {
  // The same key of two principals is two identities: one user's key opens nothing of another's.
  assert.notEqual(viewerIdentity("", DESK), viewerIdentity("_users/ada", DESK));
  assert.equal(viewerIdentity("_users/ada", DESK), viewerIdentity("_users/ada", DESK));
  const bridge = await startBridge();
  try {
    for (const key of ["short", "x".repeat(129), "has space in it 0123456789"]) {
      const refused = await viewerOn(bridge, "s", encodeURIComponent(key));
      const { code, reason } = await refused.closed;
      assert.equal(code, BridgeCloseCode.BadRequest, key);
      assert.deepEqual(JSON.parse(reason), {
        reason: "viewer must be 16-128 characters of A-Z a-z 0-9 _ -",
        code: "invalid_request",
      });
    }
    assert.equal(bridge.bridge.sessions.size, 0, "no session was started for a refused socket");
  } finally {
    await bridge.dispose();
  }
});
