// Writes one page per published package's API into src/content/docs/api/ from its api-report.md
// (every exported name with its declaration, per entry point), and the bridge protocol's page from
// docs/bridge-protocol.md (which stays the one copy: its JSON examples are checked against the
// schema by the protocol's tests). Generated before every build and dev start like the element
// pages, and not committed.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const here = resolve(import.meta.dirname, "..");
const packagesDir = join(here, "..", "..", "packages");
const apiPagesDir = join(here, "src", "content", "docs", "api");
const protocolDoc = join(here, "..", "..", "docs", "bridge-protocol.md");

/** Where the protocol document's links into the repository go on the site. */
const SITE_LINKS = {
  "../packages/bridge/README.md": "/guides/bridge/",
  "../packages/protocol/README.md": "/api/protocol/",
};

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
  writeFileSync(join(apiPagesDir, "bridge-protocol.md"), protocolPage());
}

/**
 * docs/bridge-protocol.md as a page: its title becomes the page's, a link to a README goes to the
 * page that took its place, and a link to another file of the repository stays as text (the site
 * serves no repository files).
 */
export function protocolPage() {
  const doc = readFileSync(protocolDoc, "utf8");
  const title = /^# (.+)$/m.exec(doc)?.[1] ?? "The bridge protocol";
  const body = doc
    .slice(doc.indexOf("\n", doc.indexOf("# ")) + 1)
    .replace(/\[([^\]]+)\]\((\.\.\/[^)#]+)(#[^)]*)?\)/g, (_, text, path) => {
      const page = SITE_LINKS[path];
      return page === undefined ? text : `[${text}](${page})`;
    });
  return [
    "---",
    `title: ${JSON.stringify(title)}`,
    'description: "The WebSocket and HTTP contract of @pi-kit/bridge, for a client in any language."',
    "---",
    body,
  ].join("\n");
}
