import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { BridgeCloseCode, PROTOCOL_V1, REFUSAL_CODE_HEADER } from "@pi-kit/protocol/bridge";
import { Hono } from "hono";
import { canonicalList, headerList, upgradesToWebSocket } from "../../src/headers/header-list.ts";
import { guardedUpgrade } from "../../src/http/guarded-upgrade.ts";
import { createRefusal } from "../../src/http/refusal.ts";
import type { BridgeLogEvent } from "../../src/index.ts";
import type { WebSocketRuntime } from "../../src/ws/runtime.ts";
import { rawUpgrade, startBridge, type TestBridge } from "../helpers.ts";

test("header lists: commas with optional spaces and tabs, empty elements dropped, one spelling", () => {
  const list = (value: string): string[] =>
    headerList(new Headers({ "sec-websocket-protocol": value }), "sec-websocket-protocol");
  assert.deepEqual(list("pi-kit.v1,pi-kit.token.abc"), ["pi-kit.v1", "pi-kit.token.abc"]);
  assert.deepEqual(list(" pi-kit.token.abc ,\tpi-kit.v1 "), ["pi-kit.token.abc", "pi-kit.v1"]);
  assert.deepEqual(list("a, ,,b,"), ["a", "b"]);
  assert.deepEqual(headerList(new Headers(), "sec-websocket-protocol"), []);
  assert.equal(canonicalList(["a", "b", "a"]), "a, b");
  assert.ok(upgradesToWebSocket(new Headers({ upgrade: "WebSocket" })));
  assert.ok(upgradesToWebSocket(new Headers({ upgrade: "h2c,websocket" })));
  assert.ok(!upgradesToWebSocket(new Headers({ upgrade: "h2c" })));
});

test("a runtime's upgrade that throws is a typed 400 refusal (upgrade_failed), logged once, never a 500", async () => {
  const log: BridgeLogEvent[] = [];
  const throwing: WebSocketRuntime = {
    upgrade: () => {
      throw new TypeError("Invalid Header: 'sec-websocket-key' header must be set");
    },
    bufferedAmount: () => 0,
    terminate: () => {},
  };
  const refuse = createRefusal(throwing, (entry) => log.push(entry));
  const sockets = guardedUpgrade(throwing, refuse);
  const app = new Hono().get("/sessions/:name/ws", (c) => sockets.upgrade(c, {}, PROTOCOL_V1));
  const response = await app.request("/sessions/work/ws", {
    headers: { upgrade: "websocket", "sec-websocket-protocol": `${PROTOCOL_V1},pi-kit.token.x` },
  });
  assert.equal(response.status, 400);
  assert.equal(response.headers.get(REFUSAL_CODE_HEADER), "upgrade_failed");
  const body = (await response.json()) as { error: string; code: string };
  assert.equal(body.code, "upgrade_failed");
  assert.match(body.error, /sec-websocket-key/);
  const rejected = log.filter((e) => e.event === "connection_rejected");
  assert.equal(rejected.length, 1, JSON.stringify(log));
});

let bridge: TestBridge;
before(async () => {
  bridge = await startBridge();
});
after(async () => {
  await bridge.dispose();
});

/** Every spelling of one offered list that HTTP allows. */
const spellings = (token: string): string[] => [
  `${PROTOCOL_V1},pi-kit.token.${token}`,
  `${PROTOCOL_V1}, pi-kit.token.${token}`,
  `pi-kit.token.${token} ,\t ${PROTOCOL_V1}`,
  `${PROTOCOL_V1}, , pi-kit.token.${token},`,
  `${PROTOCOL_V1},${PROTOCOL_V1},pi-kit.token.${token}`,
];

test("handshake: every spelling of the subprotocol list gets one answer on this runtime (101, pi-kit.v1 echoed)", async () => {
  for (const offered of spellings(bridge.token)) {
    // An invalid session name: the bridge upgrades and closes with 4400, so no pi starts.
    const refused = await rawUpgrade(bridge, "/sessions/-x/ws", {
      "Sec-WebSocket-Protocol": offered,
    });
    assert.equal(refused.status, 101, `${JSON.stringify(offered)}: ${refused.head}`);
    assert.match(refused.head, /^sec-websocket-protocol: pi-kit\.v1$/im, offered);
    assert.doesNotMatch(refused.head, /pi-kit\.token/, offered);
    assert.equal(refused.closeCode, BridgeCloseCode.BadRequest, offered);
  }
  const attached = await rawUpgrade(bridge, "/sessions/lists/ws", {
    "Sec-WebSocket-Protocol": `${PROTOCOL_V1},pi-kit.token.${bridge.token}`,
  });
  assert.equal(attached.status, 101, attached.head);
  assert.match(attached.head, /^sec-websocket-protocol: pi-kit\.v1$/im);
  assert.equal(attached.closeCode, undefined);
});
