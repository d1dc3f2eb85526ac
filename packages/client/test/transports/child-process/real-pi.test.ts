import assert from "node:assert/strict";
import process from "node:process";
import { after, before, describe, test } from "node:test";
import {
  type ModelServer,
  type PiCommand,
  type PiVersion,
  piCommand,
  startModelServer,
} from "@pi-kit/testing";
import { type ChildProcessTransport, type StopTimeouts, spawnPi } from "../../../src/process.ts";
import { frameReader } from "../../support/frame-reader.ts";

/** pi 0.73.1 on a busy 2-core box takes about a second to start; leave room. */
const TIMEOUT_MS = 30_000;

for (const version of ["1", "0.73"] satisfies PiVersion[]) {
  describe(`real pi ${version}`, { timeout: 90_000 }, () => {
    let server: ModelServer;
    const commands: PiCommand[] = [];

    before(async () => {
      server = await startModelServer();
    });
    after(async () => {
      for (const command of commands) command.dispose();
      await server.close();
    });

    /** Spawns real pi against the scripted model server, in its own temp HOME. */
    function spawn(stopTimeouts?: StopTimeouts): Promise<ChildProcessTransport> {
      const command = piCommand({ version, baseUrl: server.baseUrl });
      commands.push(command);
      return spawnPi({
        command: command.command,
        args: command.args,
        cwd: command.cwd,
        env: command.env,
        inheritEnv: false,
        ...(stopTimeouts === undefined ? {} : { stopTimeouts }),
      });
    }

    test("get_state written right after spawn is answered; closing stdin exits 0", async () => {
      const transport = await spawn();
      const reader = frameReader(transport.readable);
      await transport.writable.getWriter().write('{"type":"get_state","id":"1"}\n');
      const response = await Promise.race([
        reader.until((r) => r.type === "response" && r.id === "1"),
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error("no answer")), TIMEOUT_MS),
        ),
      ]);
      assert.equal(response.success, true);
      assert.equal((response.data as { model: { provider: string } }).model.provider, "pikit");

      const draining = reader.drain();
      const info = await transport.close();
      await draining;
      assert.equal(info.reason, "closed");
      assert.equal(info.exitCode, 0, `stderr: ${info.stderrTail}`);
      assert.equal(info.signal, null);
    });

    test("pi killed from outside settles closed on its exit, with the exit details", async () => {
      // Stop timers of a minute: a close that waited on one instead of the exit would show.
      const transport = await spawn({ stdinCloseMs: 60_000, sigtermMs: 60_000 });
      const reader = frameReader(transport.readable);
      await transport.writable.getWriter().write('{"type":"get_state","id":"1"}\n');
      await reader.until((r) => r.id === "1");
      const draining = reader.drain();
      const start = performance.now();
      process.kill(transport.pid as number, "SIGKILL");
      const info = await transport.closed;
      const took = performance.now() - start;
      await draining;
      // bench/client/exit.bench.ts measures how soon (target 100 ms); here only that the exit
      // settled it, not a timer.
      assert.ok(took < 10_000, `closed settled after ${took} ms`);
      assert.equal(info.reason, "exit");
      assert.equal(info.signal, "SIGKILL");
      assert.equal(info.exitCode, null);
      assert.equal(typeof info.stderrTail, "string");
    });
  });
}
