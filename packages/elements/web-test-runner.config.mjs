// Browser tests in Debian's Chromium (or CHROME_PATH) through playwright-core; no browser download.
// The repository root is served so tests can fetch the recorded transcripts of packages/protocol.
import { fileURLToPath } from "node:url";
import { esbuildPlugin } from "@web/dev-server-esbuild";
import { playwrightLauncher } from "@web/test-runner-playwright";
import { chromiumArgs, chromiumPath } from "../../scripts/chromium.mjs";

export default {
  rootDir: fileURLToPath(new URL("../..", import.meta.url)),
  // The WebSocket test needs a live bridge: the client package runs it with its own config.
  files: [
    fileURLToPath(new URL("./test/**/*.test.ts", import.meta.url)),
    `!${fileURLToPath(new URL("./test/**/*.browser.test.ts", import.meta.url))}`,
  ],
  nodeResolve: { exportConditions: ["@pi-kit/source", "production", "browser"] },
  plugins: [
    esbuildPlugin({
      ts: true,
      target: "es2022",
      tsconfig: fileURLToPath(new URL("./tsconfig.json", import.meta.url)),
    }),
  ],
  testFramework: { config: { timeout: 10000 } },
  browsers: [
    playwrightLauncher({
      product: "chromium",
      launchOptions: {
        executablePath: chromiumPath(),
        headless: true,
        args: chromiumArgs,
      },
    }),
  ],
};
