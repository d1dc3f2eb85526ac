/**
 * Issue 11, defect 9: a handshake that does not come back in time fails `connect` when the limit
 * passes, naming the handshake, not after the graceful stop of a process that never answered.
 */
import assert from "node:assert/strict";
import process from "node:process";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { PiClient, PiClientError } from "../../src/index.ts";
import { spawnPi } from "../../src/process.ts";
import { FakePi, ok, STATE } from "../support/fake-pi.ts";

const fakePi = fileURLToPath(new URL("../fixtures/fake-pi.mjs", import.meta.url));
const deno = (globalThis as { Deno?: { execPath(): string } }).Deno;

test("connect: a handshake timeout names connect and the handshake, and arrives on time", async () => {
  // A pi that never answers and shrugs off stdin closing: its graceful stop takes over 2 s.
  const transport = await spawnPi({
    command: deno === undefined ? process.execPath : deno.execPath(),
    args: [...(deno === undefined ? [] : ["run", "-A"]), fakePi, "--mute", "--ignore-stdin-close"],
  });
  const started = Date.now();
  await assert.rejects(PiClient.connect(transport, { handshakeTimeoutMs: 300 }), (e: unknown) => {
    assert.ok(e instanceof PiClientError);
    assert.equal(e.code, "timeout");
    assert.equal(e.command, "connect");
    assert.match(
      e.message,
      /^connect timed out after 300 ms waiting for pi to answer the handshake/,
    );
    return true;
  });
  const elapsed = Date.now() - started;
  // The 300 ms given, not the default minute, with room for a loaded machine.
  assert.ok(elapsed < 5000, `rejected after ${elapsed} ms`);
  // The process is still being stopped behind the rejection; it does end.
  assert.equal((await transport.closed).reason, "closed");
});

test("connect: the handshake has handshakeTimeoutMs, not the quick commands' defaultTimeoutMs", async () => {
  // A pi slower to start than a quick command may take (a loaded machine starting many at once).
  const pi = new FakePi("1");
  for (const type of ["get_state", "get_available_thinking_levels"])
    pi.handlers.set(type, (command, fake) => {
      setTimeout(
        () => fake.push(ok(command, type === "get_state" ? STATE : { levels: ["off"] })),
        30,
      );
      return undefined;
    });
  const client = await PiClient.connect(pi.transport, {
    defaultTimeoutMs: 1,
    handshakeTimeoutMs: 60_000,
  });
  assert.equal(client.capabilities.versionLine, "1");
  await client.close();
});

test("connect: pi exiting during the handshake fails connect with the exit, not get_state", async () => {
  const pi = new FakePi("1");
  pi.handlers.set("get_state", (_c, fake) => {
    fake.exit({ reason: "exit", exitCode: 2, signal: null, stderrTail: "bad flag\n" });
    return undefined;
  });
  await assert.rejects(PiClient.connect(pi.transport), (e: unknown) => {
    assert.ok(e instanceof PiClientError);
    assert.equal(e.code, "transport_closed");
    assert.equal(e.command, "connect");
    assert.match(
      e.message,
      /^connect failed: pi transport closed \(exit, exit code 2\)\nstderr:\nbad flag/,
    );
    return true;
  });
});
