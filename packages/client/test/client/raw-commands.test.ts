/**
 * Issue 11, defects 4 and 6: commands are known from what pi answers, and `send()` passes a type
 * this package does not know through to pi, so `send()` and `capabilities.supports()` agree.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { PiClient, type PiClientDiagnostic, PiClientError } from "../../src/index.ts";
import { FakePi, fail, flush, ok } from "../support/fake-pi.ts";

describe("raw commands", () => {
  test("send() passes an unknown type through, with a diagnostic, and resolves with pi's answer", async () => {
    const pi = new FakePi("1");
    const client = await PiClient.connect(pi.transport);
    const diagnostics: PiClientDiagnostic[] = [];
    client.on("diagnostic", (d) => diagnostics.push(d));
    pi.handlers.set("get_tools", (c) => [ok(c, { tools: ["bash"] })]);
    assert.equal(client.capabilities.supports("get_tools"), true);
    const response = await client.send({ type: "get_tools", verbose: true });
    assert.deepEqual(response.data, { tools: ["bash"] });
    const written = pi.written.at(-1);
    assert.equal(written?.type, "get_tools");
    assert.equal(written?.verbose, true);
    assert.equal(typeof written?.id, "string");
    assert.deepEqual(
      diagnostics.map((d) => d.kind),
      ["unknown_command"],
    );
    await client.close();
  });

  test("pi's Unknown command makes the call unsupported, and supports() says so from then on", async () => {
    const pi = new FakePi("1");
    const client = await PiClient.connect(pi.transport);
    pi.handlers.set("reload", (c) => [fail(c, "Unknown command: reload")]);
    await assert.rejects(
      client.send({ type: "reload" }),
      (e: unknown) =>
        e instanceof PiClientError && e.code === "unsupported" && e.command === "reload",
    );
    assert.equal(client.capabilities.supports("reload"), false);
    const before = pi.written.length;
    await assert.rejects(
      client.send({ type: "reload" }),
      (e: unknown) => e instanceof PiClientError && e.code === "unsupported",
    );
    await flush();
    assert.equal(pi.written.length, before, "known unsupported: not sent again");
    await client.close();
  });

  test("a known command a pi lacks (clear_queue before 0.84.4) is learnt the same way", async () => {
    const pi = new FakePi("1");
    const client = await PiClient.connect(pi.transport);
    pi.handlers.set("clear_queue", (c) => [fail(c, "Unknown command: clear_queue")]);
    const capabilities = client.capabilities;
    await assert.rejects(
      client.clearQueue(),
      (e: unknown) => e instanceof PiClientError && e.code === "unsupported",
    );
    assert.equal(client.capabilities.supports("clear_queue"), false);
    assert.equal(client.capabilities.commands.has("clear_queue"), false);
    // A snapshot handed out earlier does not change under its holder.
    assert.equal(capabilities.supports("clear_queue"), true);
    await client.close();
  });

  test("a raw command must be a JSON object with a string type; nothing else is sent", async () => {
    const pi = new FakePi("1");
    const client = await PiClient.connect(pi.transport);
    const before = pi.written.length;
    for (const bad of [{ type: "" }, { type: 5 }, { type: "x", id: Number.NaN }, null, []]) {
      await assert.rejects(
        client.send(bad as never),
        (e: unknown) => e instanceof PiClientError && e.code === "invalid_command",
      );
    }
    // A known type is still checked field by field.
    await assert.rejects(
      client.send({ type: "bash" } as never),
      (e: unknown) => e instanceof PiClientError && e.code === "invalid_command",
    );
    await flush();
    assert.equal(pi.written.length, before);
    await client.close();
  });
});
