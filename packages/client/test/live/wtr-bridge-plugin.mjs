// A web-test-runner plugin that runs the real bridge (pi 1.x, scripted model) for browser tests:
// it serves `/__pi-kit-bridge.json` ({wsBase, token, killUrl, ...}) and `POST /__pi-kit-bridge/kill`.
// Beside it, for the connection-state tests: a bridge that allows no page's origin (`foreignWsBase`),
// one that takes tickets (HS256, one session per user; `ticketsWsBase`, tickets minted at
// `mintUrl?sub=&exp=`), and one the tests stop and start again on the same port (`restartable`).
// For the runtime matrix, the bridge CLI on Node, Deno and Bun behind proxies that cut a
// connection mid-answer (`matrix`: [{runtime, wsBase, token}]; see the bridge's runtime matrix).
// Load the runner with `node --import tsx --conditions=@pi-kit/source` so the TypeScript sources import.
// Usage: plugins: [...base.plugins, piKitBridgePlugin()] (see wtr-bridge.config.mjs).

import { join } from "node:path";
import { serveBridge } from "@pi-kit/bridge/node";
import { piCommand, sessionHostOptions, startModelServer } from "@pi-kit/testing";
import { SignJWT } from "jose";
import { startMatrixBridge } from "../../../bridge/test/matrix/matrix-bridge.ts";

const TICKET_SECRET = "wtr-bridge-ticket-secret-0123456789abcdef";

/** The session host options of `pi`, with a sessions directory of its own named `name`. */
function hostOptions(pi, name) {
  return { ...sessionHostOptions(pi), sessionsDir: join(pi.tempRoot, name) };
}

/** Mints a ticket for `sub` that expires in `exp` seconds (as an application's backend would). */
function mint(sub, exp) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ sessionPrefix: "" })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(sub)
    .setAudience("pi-kit-bridge")
    .setExpirationTime(now + exp)
    .sign(new TextEncoder().encode(TICKET_SECRET));
}

/** Starts the bridge with the test server and stops it with it. */
export function piKitBridgePlugin() {
  let model;
  let pi;
  let served;
  let foreign;
  let tickets;
  let restartable;
  let restartOptions;
  let matrix = [];
  return {
    name: "pi-kit-bridge",
    async serverStart() {
      model = await startModelServer();
      pi = piCommand({ version: "1", baseUrl: model.baseUrl });
      served = await serveBridge({
        ...sessionHostOptions(pi),
        port: 0,
        origins: ["*"],
        logger: () => {},
      });
      foreign = await serveBridge({
        ...hostOptions(pi, "sessions-foreign"),
        port: 0,
        origins: ["https://elsewhere.example"],
        token: served.token,
        logger: () => {},
      });
      tickets = await serveBridge({
        ...hostOptions(pi, "sessions-tickets"),
        port: 0,
        origins: ["*"],
        tickets: { secret: TICKET_SECRET },
        limits: { maxSessionsPerUser: 1 },
        logger: () => {},
      });
      restartOptions = {
        ...hostOptions(pi, "sessions-restartable"),
        origins: ["*"],
        token: served.token,
        logger: () => {},
      };
      restartable = await serveBridge({ ...restartOptions, port: 0 });
      restartOptions = { ...restartOptions, port: restartable.port };
      matrix = await Promise.all(
        ["node", "deno", "bun"].map((runtime) => startMatrixBridge(runtime, pi, ["--origin", "*"])),
      );
    },
    async serverStop() {
      await Promise.all([
        foreign?.close(),
        tickets?.close(),
        restartable?.close(),
        ...matrix.map((bridge) => bridge.stop()),
      ]);
      await served?.close();
      await model?.close();
      pi?.dispose();
    },
    async serve(context) {
      if (context.path === "/__pi-kit-bridge.json") {
        return {
          body: JSON.stringify({
            wsBase: served.url.replace(/^http/, "ws"),
            token: served.token,
            killUrl: "/__pi-kit-bridge/kill",
            foreignWsBase: foreign.url.replace(/^http/, "ws"),
            ticketsWsBase: tickets.url.replace(/^http/, "ws"),
            mintUrl: "/__pi-kit-bridge/mint",
            restartable: {
              wsBase: restartable.url.replace(/^http/, "ws"),
              stopUrl: "/__pi-kit-bridge/stop",
              startUrl: "/__pi-kit-bridge/start",
            },
            matrix: matrix.map((bridge) => ({
              runtime: bridge.runtime,
              wsBase: bridge.proxy.wsBase,
              token: bridge.token,
            })),
          }),
          type: "application/json",
        };
      }
      if (context.path === "/__pi-kit-bridge/mint") {
        const ticket = await mint(context.query.sub, Number(context.query.exp ?? 60));
        return { body: JSON.stringify({ ticket }), type: "application/json" };
      }
      // Stops the restartable bridge (its sockets see a drop), and starts it on the same port.
      if (context.path === "/__pi-kit-bridge/stop") {
        await restartable.close();
        return { body: "{}", type: "application/json" };
      }
      if (context.path === "/__pi-kit-bridge/start") {
        restartable = await serveBridge(restartOptions);
        return { body: "{}", type: "application/json" };
      }
      if (context.path === "/__pi-kit-bridge/kill") {
        const pid = served.bridge.sessions.get(context.query.session)?.info().pid;
        if (typeof pid === "number") process.kill(pid, "SIGTERM");
        return { body: JSON.stringify({ pid }), type: "application/json" };
      }
      return undefined;
    },
  };
}
