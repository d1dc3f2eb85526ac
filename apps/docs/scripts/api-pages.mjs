// Writes one page per published package's API into src/content/docs/api/ from its api-report.md
// (every exported name with its declaration, per entry point). Generated before every build and
// dev start like the element pages, and not committed.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const here = resolve(import.meta.dirname, "..");
const packagesDir = join(here, "..", "..", "packages");
const apiPagesDir = join(here, "src", "content", "docs", "api");

/** The packages whose API the site shows, with one line on each. */
export const API_PACKAGES = {
  client:
    "PiClient, the transports (child process, WebSocket, streams, replay), dialogs and the session model.",
  protocol:
    "The JSONL framer, the types of every command, event and extension-UI method, and validation.",
  bridge: "The WebSocket bridge that owns pi processes for browsers, and its options.",
  react: "Every element as a typed React component, and the hooks.",
};

/** Regenerates every API page. */
export function generateApiPages() {
  rmSync(apiPagesDir, { recursive: true, force: true });
  mkdirSync(apiPagesDir, { recursive: true });
  for (const [name, summary] of Object.entries(API_PACKAGES)) {
    const report = readFileSync(join(packagesDir, name, "api-report.md"), "utf8");
    // The report's own title and preamble give way to the page's; its sections stay as they are.
    const body = report.slice(report.indexOf("\n## "));
    const page = [
      "---",
      `title: "@pi-kit/${name}"`,
      `description: ${JSON.stringify(summary)}`,
      "---",
      "",
      `${summary} Every name \`@pi-kit/${name}\` exports, with its declaration, per entry point; generated from the package's \`api-report.md\`, which \`npm test\` keeps current.`,
      body,
    ].join("\n");
    writeFileSync(join(apiPagesDir, `${name}.md`), page);
  }
}
