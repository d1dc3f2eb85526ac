import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { type ClientEvent, PiClient, type PiClientDiagnostic } from "../../src/index.ts";
import { FakePi, flush, ok } from "../support/fake-pi.ts";

describe("events", () => {
  test("typed listeners, catch-all, and a throwing listener never stops the others", async () => {
    const pi = new FakePi("1");
    const client = new PiClient(pi.transport);
    const seen: string[] = [];
    const diagnostics: PiClientDiagnostic[] = [];
    client.on("diagnostic", (d) => diagnostics.push(d));
    client.on("queue_update", () => {
      throw new Error("bad listener");
    });
    client.on("queue_update", (e) => seen.push(`typed:${e.steering.join(",")}`));
    client.onEvent((e) => seen.push(`any:${e.type}`));
    const off = client.on("agent_start", () => seen.push("start"));
    pi.push({ type: "queue_update", steering: ["a"], followUp: [] });
    pi.push({ type: "agent_start" });
    await flush();
    off();
    pi.push({ type: "agent_start" });
    await flush();
    assert.deepEqual(seen, [
      "typed:a",
      "any:queue_update",
      "start",
      "any:agent_start",
      "any:agent_start",
    ]);
    assert.equal(diagnostics.length, 1);
    assert.equal(diagnostics[0]?.kind, "listener_error");
    await client.close();
  });

  test("unknown record types are reported, not dropped silently", async () => {
    const pi = new FakePi("1");
    const client = new PiClient(pi.transport);
    const diagnostics: PiClientDiagnostic[] = [];
    client.on("diagnostic", (d) => diagnostics.push(d));
    pi.push({ type: "brand_new_event", x: 1 });
    await flush();
    assert.equal(diagnostics[0]?.kind, "unknown_record");
    await client.close();
  });

  test("async iteration yields events in order and ends when the client closes", async () => {
    const pi = new FakePi("1");
    const client = new PiClient(pi.transport);
    const iterator = client.events();
    pi.push({ type: "agent_start" });
    pi.push({ type: "turn_start" });
    await flush();
    const received: string[] = [];
    const loop = (async () => {
      for await (const event of iterator) received.push(event.type);
    })();
    await flush();
    await client.close();
    await loop;
    assert.deepEqual(received, ["agent_start", "turn_start"]);
  });

  test("break ends the iteration; a bounded buffer drops the oldest and reports it", async () => {
    const pi = new FakePi("1");
    const client = new PiClient(pi.transport);
    const diagnostics: PiClientDiagnostic[] = [];
    client.on("diagnostic", (d) => diagnostics.push(d));
    const bounded = client.events({ maxBuffered: 2 });
    for (let i = 0; i < 4; i++)
      pi.push({ type: "queue_update", steering: [String(i)], followUp: [] });
    await flush();
    const got: ClientEvent[] = [];
    for await (const event of bounded) {
      got.push(event);
      if (got.length === 2) break;
    }
    assert.deepEqual(
      got.map((e) => (e.type === "queue_update" ? e.steering[0] : "")),
      ["2", "3"],
    );
    assert.equal(diagnostics.filter((d) => d.kind === "iterator_overflow").length, 2);
    const controller = new AbortController();
    const aborted = client.events({ signal: controller.signal });
    controller.abort();
    assert.deepEqual(await aborted.next(), { value: undefined, done: true });
    await client.close();
  });

  test("bash output deltas reach the caller by id only", async () => {
    const pi = new FakePi("1");
    const client = new PiClient(pi.transport);
    pi.handlers.set("bash", (c, fake) => {
      fake.push({ type: "bash_execution_update", id: "other", delta: "not mine\n" });
      fake.push({ type: "bash_execution_update", id: c.id, delta: "out1\n" });
      fake.push({ type: "bash_execution_update", id: c.id, delta: "out2\n" });
      return [ok(c, { output: "out1\nout2\n", exitCode: 0, cancelled: false, truncated: false })];
    });
    const chunks: string[] = [];
    const result = await client.bash("echo", {
      excludeFromContext: true,
      onOutput: (d) => chunks.push(d),
    });
    assert.deepEqual(chunks, ["out1\n", "out2\n"]);
    assert.equal(result.exitCode, 0);
    assert.equal(pi.written.find((c) => c.type === "bash")?.excludeFromContext, true);
    const run = client.session.getSnapshot().bashRuns[0];
    assert.equal(run?.output, "out1\nout2\n");
    assert.equal(run?.status, "done");
    await client.close();
  });
});
