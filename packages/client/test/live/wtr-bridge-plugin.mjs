// A web-test-runner plugin that runs the real bridge (pi 1.x, scripted model) for browser tests:
// it serves `/__pi-kit-bridge.json` ({wsBase, token, killUrl}) and `POST /__pi-kit-bridge/kill`.
// Load the runner with `node --import tsx --conditions=@pi-kit/source` so the TypeScript sources import.
// Usage: plugins: [...base.plugins, piKitBridgePlugin()] (see wtr-bridge.config.mjs).
import { serveBridge } from "@pi-kit/bridge/node";
import { piCommand, sessionHostOptions, startModelServer } from "@pi-kit/testing";

/** Starts the bridge with the test server and stops it with it. */
export function piKitBridgePlugin() {
  let model;
  let pi;
  let served;
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
    },
    async serverStop() {
      await served?.close();
      await model?.close();
      pi?.dispose();
    },
    serve(context) {
      if (context.path === "/__pi-kit-bridge.json") {
        return {
          body: JSON.stringify({
            wsBase: served.url.replace(/^http/, "ws"),
            token: served.token,
            killUrl: "/__pi-kit-bridge/kill",
          }),
          type: "application/json",
        };
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
