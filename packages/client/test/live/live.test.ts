/**
 * Live tests: PiClient against real pi 1.x (Node 22) and 0.73.1 (Node 20), spawned through the
 * child-process transport, with the scripted model server and the ui-probe extension.
 */
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { AgentMessage } from "@pi-kit/protocol";
import {
  type ModelServer,
  type PiVersion,
  PROVIDER,
  REASONING_MODEL,
  startModelServer,
} from "@pi-kit/testing";
import { type ClientEvent, PiClientError } from "../../src/index.ts";
import {
  assertStreamsAssemble,
  nextEvent,
  probeResult,
  type StartedPi,
  type StartOptions,
  startPi,
  textOf,
} from "./live-pi.ts";

let server: ModelServer;
before(async () => {
  server = await startModelServer();
});
after(async () => {
  await server.close();
});

function start(version: PiVersion, options: StartOptions = {}): Promise<StartedPi> {
  return startPi(server, version, options);
}

/**
 * The parts of assistant content that pi streams. A thinking block's `thinkingSignature` is not
 * on the wire until `message_end` (which then replaces the assembled message), so it is left out.
 */
function streamable(content: readonly unknown[]): unknown[] {
  return content.map((block) => {
    if (typeof block !== "object" || block === null) return block;
    const { thinkingSignature: _signature, ...rest } = block as Record<string, unknown>;
    return rest;
  });
}

for (const version of ["1", "0.73"] as const) {
  describe(`live pi ${version}`, { timeout: 300_000 }, () => {
    test("connect detects the line; every supported command works", async () => {
      const { client, stop } = await start(version, { sessionDir: true });
      try {
        assert.equal(client.capabilities.versionLine, version);
        assert.equal(client.capabilities.detected, true);
        const run = await client.promptAndWait("[[text hello there]]");
        assert.equal(run.disposition, "started");
        assert.equal(await client.getLastAssistantText(), "hello there");
        const messages = await client.getMessages();
        assert.ok(messages.some((m) => m.role === "user"));
        const state = await client.getState();
        assert.equal(state.isStreaming, false);
        const models = await client.getAvailableModels();
        assert.ok(models.length >= 1);
        const model = await client.setModel(PROVIDER, models[0]?.id ?? "");
        assert.equal(model.id, models[0]?.id);
        assert.equal(typeof model.contextWindow, "number");
        await client.cycleModel();
        await client.setThinkingLevel("off");
        await client.cycleThinkingLevel();
        await client.setSteeringMode("all");
        await client.setFollowUpMode("one-at-a-time");
        await client.setAutoCompaction(true);
        await client.setAutoRetry(true);
        await client.abortRetry();
        const stats = await client.getSessionStats();
        assert.ok(stats.userMessages >= 1);
        assert.ok(Array.isArray(await client.getCommands()));
        await client.setSessionName("live");
        await assert.rejects(
          client.setSessionName("  "),
          (e: unknown) =>
            (e instanceof PiClientError && e.code === "invalid_command") ||
            (e instanceof PiClientError && e.code === "rpc_failed"),
        );
        const bash = await client.bash("echo hi");
        assert.equal(bash.output.trim(), "hi");
        await client.abortBash();
        await client.abort();
        assert.equal(await client.steer("queued steer"), version === "1" ? "queued" : undefined);
        assert.equal(
          await client.followUp("queued follow"),
          version === "1" ? "queued" : undefined,
        );
        const out = join(mkdtempSync(join(tmpdir(), "pk-live-")), "s.html");
        assert.equal((await client.exportHtml(out)).path, out);
        const forks = await client.getForkMessages();
        assert.ok(forks.length >= 1);
        if (version === "1") {
          assert.ok((await client.getAvailableThinkingLevels()).includes("off"));
          const cleared = await client.clearQueue();
          assert.deepEqual(cleared, { steering: ["queued steer"], followUp: ["queued follow"] });
          const entries = await client.getEntries();
          assert.ok(entries.entries.length > 0);
          assert.ok((await client.getTree()).tree.length > 0);
        } else {
          for (const call of [
            () => client.clearQueue(),
            () => client.getEntries(),
            () => client.getTree(),
            () => client.getAvailableThinkingLevels(),
          ]) {
            await assert.rejects(
              call(),
              (e: unknown) => e instanceof PiClientError && e.code === "unsupported",
            );
          }
        }
        // compact may refuse a tiny session on 1.x; either way it answers.
        await client
          .compact()
          .catch((e: unknown) => assert.ok(e instanceof PiClientError && e.code === "rpc_failed"));
        await client
          .clone()
          .catch((e: unknown) => assert.ok(e instanceof PiClientError && e.code === "rpc_failed"));
        const forked = await client.fork(forks[0]?.entryId ?? "");
        assert.equal(typeof forked.text, "string");
        await assert.rejects(
          client.fork("nope"),
          (e: unknown) => e instanceof PiClientError && e.code === "rpc_failed",
        );
        const switched = await client.switchSession(
          join(mkdtempSync(join(tmpdir(), "pk-live-")), "other.jsonl"),
        );
        assert.equal(switched.cancelled, false);
        assert.equal((await client.newSession()).cancelled, false);
      } finally {
        await stop();
      }
    });

    test("streaming text and tool calls assemble to exactly message_end", async () => {
      const { client, stop } = await start(version);
      try {
        const assembled = await assertStreamsAssemble(
          client,
          "[[text streamed words here]] [[bash echo tool-output]]",
        );
        assert.ok(assembled >= 2);
        const tools = [...client.session.getSnapshot().toolExecutions.values()];
        assert.equal(tools[0]?.toolName, "bash");
        assert.equal(tools[0]?.status, "done");
        const messages = client.session.getSnapshot().messages;
        assert.ok(messages.some((m) => m.role === "toolResult"));
        assert.match(textOf(messages.at(-1)), /tool-output/);
      } finally {
        await stop();
      }
    });

    test("streaming thinking assembles to exactly message_end", async () => {
      const { client, stop } = await start(version, { model: REASONING_MODEL });
      try {
        await client.setThinkingLevel("low");
        let assembled: AgentMessage | undefined;
        let final: AgentMessage | undefined;
        client.on("message_update", () => {
          assembled = client.session.getSnapshot().streamingMessage;
        });
        client.on("message_end", (e) => {
          if (e.message.role === "assistant") final = e.message;
        });
        await client.promptAndWait("[[think weighing the options carefully]] [[text decided]]");
        assert.equal(final?.role, "assistant");
        assert.equal(assembled?.role, "assistant");
        if (final?.role !== "assistant" || assembled?.role !== "assistant") return;
        assert.deepEqual(streamable(assembled.content), streamable(final.content));
        const thinking = final.content.find((block) => block.type === "thinking");
        assert.match(
          thinking?.type === "thinking" ? thinking.thinking : "",
          /weighing the options/,
        );
      } finally {
        await stop();
      }
    });

    test("steer and follow-up during a run update the queues; abort settles as aborted", async () => {
      const { client, stop } = await start(version);
      try {
        const queues: number[] = [];
        client.on("queue_update", (e) => queues.push(e.steering.length + e.followUp.length));
        const running = client.promptAndWait("[[slow 40ms x100]]");
        await nextEvent(client, (e): e is ClientEvent => e.type === "message_update");
        await client.prompt("steer via prompt", { streamingBehavior: "steer" });
        await client.followUp("follow up cmd");
        assert.ok(client.session.getSnapshot().queue.followUp.includes("follow up cmd"));
        if (version === "1") {
          const cleared = await client.clearQueue();
          assert.deepEqual(cleared.followUp, ["follow up cmd"]);
        }
        await client.abort();
        const result = await running;
        assert.equal(result.aborted, true);
        assert.ok(queues.length >= 2);
        assert.equal(client.session.getSnapshot().isRunning, false);
      } finally {
        await stop();
      }
    });

    test("a provider error with auto-retry settles only after the retry", async () => {
      const { client, stop } = await start(version);
      try {
        const seen: string[] = [];
        client.onEvent((e) => {
          if (
            [
              "agent_end",
              "auto_retry_start",
              "auto_retry_end",
              "agent_settled",
              "run_settled",
            ].includes(e.type)
          )
            seen.push(e.type);
        });
        const result = await client.promptAndWait(
          `[[fail 503 x1]] [[text recovered]] (pi ${version})`,
        );
        assert.equal(result.aborted, false);
        assert.ok(seen.includes("auto_retry_start"));
        assert.equal(seen.at(-1), "run_settled");
        assert.equal(seen.filter((t) => t === "run_settled").length, 1);
        assert.equal(await client.getLastAssistantText(), "recovered");
      } finally {
        await stop();
      }
    });

    test("bash streams its own output (1.x) and abort_bash cancels", async () => {
      const { client, stop } = await start(version);
      try {
        const chunks: string[] = [];
        const result = await client.bash("for i in 1 2 3; do echo out$i; sleep 0.05; done", {
          onOutput: (d) => chunks.push(d),
          excludeFromContext: true,
        });
        assert.equal(result.output, "out1\nout2\nout3\n");
        if (version === "1") assert.equal(chunks.join(""), "out1\nout2\nout3\n");
        else assert.equal(chunks.length, 0);
        const slow = client.bash("echo start; sleep 5");
        await new Promise((r) => setTimeout(r, 300));
        await client.abortBash();
        const aborted = await slow;
        assert.equal(aborted.cancelled, true);
        const runs = client.session.getSnapshot().bashRuns;
        assert.equal(runs.length, 2);
        assert.equal(runs[0]?.output, "out1\nout2\nout3\n");
      } finally {
        await stop();
      }
    });

    test("extension dialogs: answer, cancel, timeout, two at once", async () => {
      const { client, stop } = await start(version, {
        dialogHandler: (request, { signal }) => {
          if (request.title === "Sure (timeout)?")
            return new Promise((resolve) =>
              signal.addEventListener("abort", () => resolve(undefined)),
            );
          if (request.method === "confirm") return true;
          if (request.method === "select") return request.title === "Second?" ? "Y" : undefined;
          return "typed";
        },
      });
      try {
        const confirm = probeResult(client, "confirm");
        assert.equal(
          await client.promptAndWait("/ui confirm").then((r) => r.disposition),
          "handled",
        );
        assert.equal(await confirm, "true");
        const select = probeResult(client, "select");
        await client.prompt("/ui select");
        assert.equal(await select, "undefined");
        const input = probeResult(client, "input");
        await client.prompt("/ui input");
        assert.equal(await input, '"typed"');
        const timeout = probeResult(client, "timeout");
        const started = Date.now();
        // pi answers its own timeout and never says so; the client's countdown, which started
        // when the request arrived (a little after pi's), must close the dialog on its own.
        const closedByClient = new Promise<number>((resolve) => {
          let opened = false;
          const off = client.session.subscribe(() => {
            const open = client.session.getSnapshot().dialogs.length;
            if (open > 0) opened = true;
            else if (opened) {
              off();
              resolve(Date.now() - started);
            }
          });
        });
        await client.prompt("/ui timeout 300");
        assert.equal(await timeout, "false");
        const closedAfter = await closedByClient;
        assert.ok(closedAfter >= 250 && closedAfter < 5000, `closed after ${closedAfter} ms`);
        const two = probeResult(client, "two");
        await client.prompt("/ui two");
        assert.equal(await two, JSON.stringify({ confirm: true, select: "Y" }));
      } finally {
        await stop();
      }
    });

    test("extension dialogs: stale after abort, and cancelled at once without a handler", async () => {
      const signals: AbortSignal[] = [];
      const { client, stop } = await start(version, {
        dialogHandler: (_request, { signal }) => {
          signals.push(signal);
          return new Promise(() => {});
        },
      });
      try {
        const running = client.promptAndWait("[[bash echo CONFIRM]]");
        await nextEvent(
          client,
          (e): e is ClientEvent => e.type === "extension_ui_request" && e.method === "confirm",
        );
        assert.equal(client.session.getSnapshot().dialogs.length, 1);
        assert.equal(client.session.getSnapshot().dialogs[0]?.runBound, true);
        await client.abort();
        await running;
        assert.equal(signals[0]?.aborted, true);
        assert.equal(client.session.getSnapshot().dialogs.length, 0);
        client.ui.setDialogHandler(undefined);
        const result = probeResult(client, "confirm");
        await client.prompt("/ui confirm");
        assert.equal(await result, "false");
      } finally {
        await stop();
      }
    });

    test("fire-and-forget UI state is retained", async () => {
      const { client, stop } = await start(version);
      try {
        await client.prompt("/ui status busy");
        await client.prompt("/ui widget below");
        await client.prompt("/ui title Probe");
        let ui = client.ui.state;
        assert.equal(ui.statuses.get("probe"), "busy");
        assert.deepEqual(ui.widgets.get("probe"), { lines: ["below"], placement: "belowEditor" });
        assert.equal(ui.title, "Probe");
        await client.prompt("/ui status clear");
        await client.prompt("/ui widget clear");
        ui = client.ui.state;
        assert.equal(ui.statuses.has("probe"), false);
        assert.equal(ui.widgets.has("probe"), false);
      } finally {
        await stop();
      }
    });

    test("pi killed mid-run rejects every pending call quickly", async () => {
      const { client, transport, stop } = await start(version);
      try {
        const running = client.promptAndWait("[[slow 50ms x200]]");
        await nextEvent(client, (e): e is ClientEvent => e.type === "message_update");
        const bash = client.bash("sleep 10");
        const killedAt = Date.now();
        transport.kill("SIGKILL");
        // Both handled at once: whichever rejects first must not wait unobserved for the other.
        await Promise.all(
          [running, bash].map((call) =>
            assert.rejects(call, (e: unknown) => {
              assert.ok(e instanceof PiClientError);
              assert.equal(e.code, "transport_closed");
              // The exit, or on a loaded machine the end of pi's output when the exit comes
              // later than the client waits for it (it rejects calls within 100 ms either way).
              assert.ok(
                e.closeInfo?.signal === "SIGKILL" || e.closeInfo?.reason === "eof",
                JSON.stringify(e.closeInfo),
              );
              return true;
            }),
          ),
        );
        // Long before the 10 s the bash command would take, with room for a loaded machine.
        assert.ok(Date.now() - killedAt < 3000, `took ${Date.now() - killedAt} ms`);
      } finally {
        await stop();
      }
    });
  });
}
