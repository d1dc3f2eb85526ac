#!/usr/bin/env node
// The package's bin. A committed file rather than dist/cli.js itself: npm links a bin only when
// its file exists, and in a fresh clone `npm ci` links before anything is built.
let cli;
try {
  cli = await import("../dist/cli.js");
} catch (error) {
  if (error?.code !== "ERR_MODULE_NOT_FOUND" || !String(error.message).includes("dist/cli.js"))
    throw error;
  console.error(
    "pi-kit-bridge: not built yet: run `npm run build -w @pi-kit/bridge` (npm start and npm test build it)",
  );
  process.exit(1);
}
await cli.main(process.argv.slice(2));
