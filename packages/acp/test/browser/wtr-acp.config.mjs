// Runs the <pi-chat> viewer test in Chromium (with the elements' runner setup) against a real
// bridge whose session `pi-kit-acp` drives:
// node --import tsx --conditions=@pi-kit/source ../../node_modules/@web/test-runner/dist/bin.js --config test/browser/wtr-acp.config.mjs
import { fileURLToPath } from "node:url";
import base from "../../../elements/web-test-runner.config.mjs";
import { acpViewerPlugin } from "./acp-plugin.mjs";

export default {
  ...base,
  files: [fileURLToPath(new URL("./pi-chat-viewer.browser.ts", import.meta.url))],
  plugins: [...base.plugins, acpViewerPlugin()],
  testFramework: { config: { timeout: 60000 } },
};
