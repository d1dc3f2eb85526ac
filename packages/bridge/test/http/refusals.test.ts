/**
 * Every refusal on every path carries its typed `code` (issue 18): a pi-kit client's socket gets
 * the close code and `{"reason","code"}`, a plain upgrade the HTTP status and `{"error","code"}`,
 * the HTTP API the same body.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { connect as tcpConnect } from "node:net";
import { test } from "node:test";
import { BridgeCloseCode } from "@pi-kit/protocol/bridge";
import { connect, type Rec, type TestBridge, upgradeRequest } from "../helpers.ts";
import { api, mint, startTicketBridge, ticketKeys } from "../ticket-helpers.ts";

/**
 * A raw WebSocket handshake: the HTTP status and the parsed JSON body of a refusal, or after a
 * 101 the close frame that follows (its code, and its reason parsed as the body).
 */
function handshake(
  bridge: TestBridge,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: Rec; closeCode?: number; code?: string }> {
  const url = new URL(bridge.url);
  return new Promise((resolve, reject) => {
    const socket = tcpConnect(Number(url.port), url.hostname, () =>
      socket.write(upgradeRequest(url, path, headers)),
    );
    let data = Buffer.alloc(0);
    const check = (ended: boolean): void => {
      const end = data.indexOf("\r\n\r\n");
      if (end === -1) {
        if (ended) reject(new Error(`no response head: ${data.toString()}`));
        return;
      }
      const head = data.subarray(0, end).toString("latin1");
      const status = Number(head.split(" ")[1]);
      const rest = data.subarray(end + 4);
      if (status === 101) {
        // A server's close frame: 0x88, an unmasked length under 126, the code, the reason.
        if (rest.length < 2 || rest.length < 2 + (rest[1] ?? 0)) return;
        socket.destroy();
        const closeCode = rest.readUInt16BE(2);
        const reason = rest.subarray(4, 2 + (rest[1] ?? 0)).toString("utf8");
        resolve({ status, closeCode, body: JSON.parse(reason) as Rec });
        return;
      }
      const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? Number.NaN);
      if (!ended && !(rest.length >= length)) return;
      socket.destroy();
      // Node's server sends no body with a refused upgrade: the code comes as a header too.
      const code = /^pi-kit-error-code: (\S+)/im.exec(head)?.[1];
      const body = rest.length > 0 ? (JSON.parse(rest.toString("utf8")) as Rec) : {};
      resolve({ status, body, ...(code === undefined ? {} : { code }) });
    };
    socket.on("data", (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      check(false);
    });
    socket.on("end", () => check(true));
    socket.on("error", reject);
  });
}

test("refusals: every refusal names its code on the socket, the plain upgrade and the API", async () => {
  const keys = await ticketKeys();
  const bridge = await startTicketBridge(keys, {
    origins: ["http://localhost:5173"],
    limits: { maxSessionsPerUser: 1 },
  });
  try {
    const heidi = await mint(keys, { sub: "heidi", sessionPrefix: "" });
    const watcher = await mint(keys, { sub: "heidi", sessions: ["nothing"], readOnly: true });
    // Heidi's one session, so her next one is over the cap.
    assert.equal(
      (await api(bridge, heidi, "/sessions", { method: "POST", body: { name: "one" } })).status,
      201,
    );
    const cases: Array<{
      what: string;
      token: string | undefined;
      name: string;
      origin?: string;
      status: number;
      close: number;
      code: string;
    }> = [
      {
        what: "missing token",
        token: undefined,
        name: "a",
        status: 401,
        close: BridgeCloseCode.Unauthorized,
        code: "missing_token",
      },
      {
        what: "wrong token",
        token: "wrongwrongwrongwrongwrong",
        name: "a",
        status: 401,
        close: BridgeCloseCode.Unauthorized,
        code: "wrong_token",
      },
      {
        what: "foreign origin",
        token: bridge.token,
        name: "a",
        origin: "https://evil.example",
        status: 403,
        close: BridgeCloseCode.Forbidden,
        code: "origin_not_allowed",
      },
      {
        what: "per-user cap",
        token: heidi,
        name: "two",
        status: 503,
        close: BridgeCloseCode.TryAgainLater,
        code: "too_many_sessions",
      },
      {
        what: "invalid name",
        token: heidi,
        name: "_bad",
        status: 400,
        close: BridgeCloseCode.BadRequest,
        code: "invalid_session_name",
      },
      {
        what: "unknown session (read-only ticket creates nothing)",
        token: watcher,
        name: "nothing",
        status: 404,
        close: BridgeCloseCode.NoSuchSession,
        code: "unknown_session",
      },
    ];
    for (const c of cases) {
      const headers: Record<string, string> = {
        ...(c.token === undefined ? {} : { authorization: `Bearer ${c.token}` }),
        ...(c.origin === undefined ? {} : { origin: c.origin }),
      };
      // A pi-kit client may be a browser, which hides statuses: the upgrade, then the close.
      const piKit = await handshake(bridge, `/sessions/${c.name}/ws`, {
        ...headers,
        "Sec-WebSocket-Protocol": `pi-kit.v1${c.token === undefined ? "" : `, pi-kit.token.${c.token}`}`,
      });
      assert.equal(piKit.status, 101, c.what);
      assert.equal(piKit.closeCode, c.close, c.what);
      assert.equal(piKit.body.code, c.code, c.what);
      // A plain upgrade: the status and the body with the code.
      const plain = await handshake(bridge, `/sessions/${c.name}/ws`, headers);
      assert.equal(plain.status, c.status, c.what);
      assert.equal(plain.code, c.code, c.what);
      if (plain.body.code !== undefined) assert.equal(plain.body.code, c.code, c.what);
      // The HTTP API on the same session.
      if (c.code !== "too_many_sessions" && c.code !== "unknown_session") {
        const response = await fetch(`${bridge.url}/api/sessions/${c.name}`, { headers });
        assert.equal(response.status, c.status, c.what);
        assert.equal(((await response.json()) as Rec).code, c.code, c.what);
      }
    }
    const unknown = await api(bridge, heidi, "/sessions/none");
    assert.equal(unknown.status, 404);
    assert.equal(((await unknown.json()) as Rec).code, "unknown_session");
    // A plain request to the socket route, and a handshake without pi-kit.v1.
    const plainGet = await fetch(`${bridge.url}/sessions/a/ws`, {
      headers: { authorization: `Bearer ${bridge.token}` },
    });
    assert.equal(plainGet.status, 426);
    assert.equal(((await plainGet.json()) as Rec).code, "upgrade_required");
    const noV1 = await handshake(bridge, "/sessions/a/ws", {
      "Sec-WebSocket-Protocol": `pi-kit.token.${bridge.token}`,
    });
    assert.equal(noV1.status, 400);
    assert.equal(noV1.code, "invalid_request");
    // Every refusal is logged with its code.
    const rejected = bridge.log.filter((e) => e.event === "connection_rejected");
    assert.ok(rejected.every((e) => "code" in e && typeof e.code === "string"));
    // A closing bridge: 503 `closing`, close 1013 for a pi-kit client.
    await bridge.bridge.close();
    const closing = await api(bridge, bridge.token, "/sessions");
    assert.equal(closing.status, 503);
    assert.equal(((await closing.json()) as Rec).code, "closing");
    const late = await connect(bridge, "late");
    const closed = await late.closed;
    assert.equal(closed.code, BridgeCloseCode.TryAgainLater);
    assert.equal((JSON.parse(closed.reason) as Rec).code, "closing");
  } finally {
    await bridge.dispose();
  }
});
