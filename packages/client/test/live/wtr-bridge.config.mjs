// Runs the client's Chromium tests (in packages/elements, whose runner setup it reuses) against
// the real bridge: node --import tsx --conditions=@pi-kit/source node_modules/.bin/wtr --config packages/client/test/live/wtr-bridge.config.mjs
import { fileURLToPath } from "node:url";
import base from "../../../elements/web-test-runner.config.mjs";
import { piKitBridgePlugin } from "./wtr-bridge-plugin.mjs";

export default {
  ...base,
  files: [
    fileURLToPath(
      new URL("../../../elements/test/websocket-transport.browser.test.ts", import.meta.url),
    ),
    fileURLToPath(
      new URL(
        "../../../elements/test/components/chat/chat-connection.browser.test.ts",
        import.meta.url,
      ),
    ),
    fileURLToPath(
      new URL("../../../elements/test/runtime-matrix.browser.test.ts", import.meta.url),
    ),
  ],
  plugins: [...base.plugins, piKitBridgePlugin()],
  testFramework: { config: { timeout: 60000 } },
};
