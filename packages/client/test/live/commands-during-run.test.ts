/**
 * Live, issue 26 (pi 1.x and 0.73.1): what pi does with an extension command sent while it
 * streams, which `<pi-chat>` relies on: sent as a `prompt` it runs at once (its dialog opens and
 * is answered while the answer still streams); queued as a follow-up it is refused.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { type ModelServer, startModelServer } from "@pi-kit/testing";
import { PiClientError } from "../../src/index.ts";
import { probeResult, startPi, whenSession } from "./live-pi.ts";

let server: ModelServer;
before(async () => {
  server = await startModelServer();
});
after(async () => {
  await server.close();
});

for (const version of ["1", "0.73"] as const) {
  describe(`live pi ${version}: commands during a run`, { timeout: 120_000 }, () => {
    test("an extension command runs at once as a prompt mid-run; as a follow-up it is refused", async () => {
      let streamingWhenAsked: boolean | undefined;
      const { client, stop } = await startPi(server, version, {
        dialogHandler: () => {
          streamingWhenAsked = client.session.getSnapshot().isRunning;
          return true;
        },
      });
      try {
        const run = client.promptAndWait("[[slow 100ms x 60]]");
        await whenSession(
          client,
          () => client.session.getSnapshot().streamingMessage !== undefined,
        );
        await assert.rejects(
          client.followUp("/ui confirm"),
          (error: unknown) => error instanceof PiClientError,
          "pi refuses an extension command as a follow-up",
        );
        const confirmed = probeResult(client, "confirm");
        await client.prompt("/ui confirm");
        assert.equal(await confirmed, "true");
        assert.equal(streamingWhenAsked, true, "the command ran while pi still streamed");
        assert.equal(client.session.getSnapshot().isRunning, true);
        await client.abort();
        await run.catch(() => undefined);
      } finally {
        await stop();
      }
    });
  });
}
