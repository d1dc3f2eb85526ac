// React Testing Library in Debian's Chromium (or CHROME_PATH) through playwright-core. React ships
// CommonJS only, so each test file is served bundled by esbuild (which reads CommonJS) rather than
// module by module.
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { playwrightLauncher } from "@web/test-runner-playwright";
import { build } from "esbuild";
import { chromiumArgs, chromiumPath } from "../../scripts/chromium.mjs";

// The repository root, so tests can fetch the recorded transcripts of packages/protocol.
const rootDir = fileURLToPath(new URL("../..", import.meta.url));

/** Serves `*.browser.test.ts` as one bundle: the test, React, Testing Library, the elements. */
const bundleTests = {
  name: "pi-bundle-tests",
  async serve(context) {
    if (!context.path.endsWith(".browser.test.ts")) return undefined;
    const result = await build({
      entryPoints: [join(rootDir, context.path)],
      bundle: true,
      write: false,
      format: "esm",
      target: "es2022",
      jsx: "automatic",
      sourcemap: "inline",
      conditions: ["@pi-kit/source", "browser"],
      define: { "process.env.NODE_ENV": JSON.stringify("development") },
      logLevel: "silent",
    });
    return { body: result.outputFiles[0].text, type: "js" };
  },
};

export default {
  rootDir,
  files: fileURLToPath(new URL("./test/**/*.browser.test.ts", import.meta.url)),
  plugins: [bundleTests],
  testFramework: { config: { timeout: 10000 } },
  browsers: [
    playwrightLauncher({
      product: "chromium",
      launchOptions: { executablePath: chromiumPath(), headless: true, args: chromiumArgs },
    }),
  ],
};
