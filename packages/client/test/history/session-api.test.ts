/**
 * SessionApi against a fake fetch: the URL under the session's part, the bearer token, the JSON or
 * raw body, and the controller's socket sent with writes only.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { CONTROLLER_CONNECTION_HEADER } from "@pi-kit/protocol/bridge";
import { SessionApi } from "../../src/history/session-api.ts";

interface Sent {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

function api(part: string): { api: SessionApi; sent: Sent[] } {
  const sent: Sent[] = [];
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    sent.push({
      url: String(input),
      method: init?.method ?? "GET",
      headers: { ...(init?.headers as Record<string, string>) },
      body: init?.body,
    });
    return Response.json({ ok: true });
  }) as typeof globalThis.fetch;
  const options = {
    baseUrl: "http://bridge.test/pi/",
    session: "a b",
    token: "secret",
    fetch,
    connectionId: () => 7,
  };
  return { api: new SessionApi(options, part), sent };
}

test("SessionApi: calls under the session's part, with the token, JSON or raw bodies, the controller's socket on writes only", async () => {
  const { api: uploads, sent } = api("/uploads");
  assert.deepEqual(await uploads.call("GET", "/u1", {}, undefined), { ok: true });
  await uploads.call("POST", "", { body: { name: "a.txt" } }, undefined, true);
  await uploads.call("PUT", "/u1?offset=0", { raw: new Blob(["hi"]) }, undefined, true);

  assert.deepEqual(
    sent.map((s) => `${s.method} ${s.url}`),
    [
      "GET http://bridge.test/pi/api/sessions/a%20b/uploads/u1",
      "POST http://bridge.test/pi/api/sessions/a%20b/uploads",
      "PUT http://bridge.test/pi/api/sessions/a%20b/uploads/u1?offset=0",
    ],
  );
  assert.ok(sent.every((s) => s.headers.authorization === "Bearer secret"));
  assert.equal(sent[0]?.headers[CONTROLLER_CONNECTION_HEADER], undefined, "a read names no socket");
  assert.equal(sent[1]?.headers[CONTROLLER_CONNECTION_HEADER], "7");
  assert.equal(sent[1]?.body, '{"name":"a.txt"}');
  assert.equal(sent[2]?.headers["content-type"], "application/octet-stream");
  assert.ok(sent[2]?.body instanceof Blob);
});
