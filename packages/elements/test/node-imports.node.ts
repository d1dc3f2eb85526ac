// What importing each entry of the package does in Node (the docs site's Frameworks guide, "In
// Node"), each in a fresh Node process as a server would: what lands on globalThis, which tags get
// registered, and that no DOM appears. Run by `npm test` with node:test, against the built package.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { test } from "node:test";

type Exports = Record<string, string | Record<string, string>>;
const pkg = new URL("../", import.meta.url);
const readJson = (path: string): unknown => JSON.parse(readFileSync(new URL(path, pkg), "utf8"));
const exportsMap = (readJson("package.json") as { exports: Exports }).exports;
const manifest = readJson("custom-elements.json") as {
  modules: { declarations?: { tagName?: string }[] }[];
};
const TAGS = manifest.modules
  .flatMap((module) => module.declarations ?? [])
  .flatMap((declaration) => (declaration.tagName ? [declaration.tagName] : []));
/** The tags a page loads when it shows them, each from an entry of its own (not `define`). */
const LAZY_TAGS = ["pi-changes", "pi-pair"];
/** The tags an element loads and registers itself the first time it needs them (the `@` menu). */
const SELF_LOADED_TAGS = ["pi-mention-menu"];

/** The globals Lit's Node build adds: its DOM shim's registry and root, and its bookkeeping. */
const LIT_GLOBALS = [
  "customElements",
  "litElementVersions",
  "litHtmlVersions",
  "litPropertyMetadata",
  "litServerRoot",
  "reactiveElementVersions",
];

/** What importing `specifier` in a fresh Node process did, as that process saw it. */
interface Effects {
  readonly exports: string[];
  readonly globals: string[];
  readonly tags: string[];
  readonly dom: string[];
  /** What connecting a `<pi-chat>` did, when the tag is registered. */
  readonly rendering?: string;
}

function importInNode(specifier: string, json = false): Effects {
  const script = `
    const before = new Set(Object.getOwnPropertyNames(globalThis));
    const module = await import(${JSON.stringify(specifier)}${json ? ', { with: { type: "json" } }' : ""});
    const tags = ${JSON.stringify(TAGS)}.filter((tag) => globalThis.customElements?.get(tag));
    console.log(JSON.stringify({
      exports: Object.keys(module),
      globals: Object.getOwnPropertyNames(globalThis).filter((name) => !before.has(name)).sort(),
      tags,
      dom: ["document", "window", "HTMLElement", "Node"].filter((name) => name in globalThis),
      rendering: renderError(),
    }));
    function renderError() {
      const element = globalThis.customElements?.get("pi-chat");
      if (!element) return undefined;
      try {
        new element().connectedCallback();
        return "rendered";
      } catch (error) {
        return String(error);
      }
    }`;
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: pkg,
    encoding: "utf8",
    stdio: "pipe",
  });
  return JSON.parse(out) as Effects;
}

const entries = Object.entries(exportsMap).map(([path, target]) => ({
  specifier: `@pi-kit/elements${path.slice(1)}`,
  typesOnly: typeof target === "object" && Object.keys(target).join() === "types",
  json: path.endsWith(".json"),
}));

test("the package's entries are the ones the Frameworks guide's In Node section covers", () => {
  assert.deepEqual(
    entries.map((entry) => entry.specifier),
    [
      "@pi-kit/elements",
      "@pi-kit/elements/define",
      "@pi-kit/elements/changes",
      "@pi-kit/elements/pair",
      "@pi-kit/elements/locales",
      "@pi-kit/elements/custom-elements.json",
      "@pi-kit/elements/bundle",
      "@pi-kit/elements/jsx",
      "@pi-kit/elements/vue",
      "@pi-kit/elements/svelte",
      "@pi-kit/elements/vscode.html-custom-data.json",
      "@pi-kit/elements/vscode.css-custom-data.json",
    ],
  );
});

test("@pi-kit/elements adds Lit's shim globals, registers no tag, and brings no DOM", () => {
  const effects = importInNode("@pi-kit/elements");
  assert.deepEqual(effects.globals, LIT_GLOBALS);
  assert.deepEqual(effects.tags, []);
  assert.deepEqual(effects.dom, []);
  assert.ok(effects.exports.includes("PiChat"), "the element classes are exported");
});

for (const specifier of ["@pi-kit/elements/define", "@pi-kit/elements/bundle"])
  test(`${specifier} registers every tag in Lit's shim registry, and brings no DOM`, () => {
    const effects = importInNode(specifier);
    assert.deepEqual(effects.globals, LIT_GLOBALS);
    assert.deepEqual(
      effects.tags,
      TAGS.filter(
        (tag) =>
          !SELF_LOADED_TAGS.includes(tag) &&
          (specifier.endsWith("/bundle") || !LAZY_TAGS.includes(tag)),
      ),
    );
    assert.deepEqual(effects.dom, []);
    assert.equal(effects.rendering, "ReferenceError: document is not defined");
  });

test("@pi-kit/elements/changes registers <pi-changes> only, and brings no DOM", () => {
  const effects = importInNode("@pi-kit/elements/changes");
  assert.deepEqual(effects.tags, ["pi-changes"]);
  assert.deepEqual(effects.dom, []);
  assert.deepEqual(effects.exports.sort(), ["PiChanges", "PiRevertFileEvent", "PiUndoTurnEvent"]);
});

test("@pi-kit/elements/pair registers <pi-pair> only, and brings no DOM (nor its QR library)", () => {
  const effects = importInNode("@pi-kit/elements/pair");
  assert.deepEqual(effects.tags, ["pi-pair"]);
  assert.deepEqual(effects.dom, []);
  assert.deepEqual(effects.exports.sort(), ["PiPair"]);
});

test("@pi-kit/elements/locales exports the string tables, registers no tag, and brings no DOM", () => {
  const effects = importInNode("@pi-kit/elements/locales");
  assert.deepEqual(effects.tags, []);
  assert.deepEqual(effects.dom, []);
  assert.deepEqual(effects.exports.sort(), [
    "BUILT_IN_STRINGS",
    "en",
    "format",
    "sessionStringsEn",
    "sessionStringsFor",
    "sessionStringsZhCN",
    "stringsFor",
    "zhCN",
  ]);
});

test("@pi-kit/elements/bundle exports the client with the elements in Node too", () => {
  const { exports } = importInNode("@pi-kit/elements/bundle");
  for (const name of ["PiClient", "createWebSocketTransport", "PiChat"])
    assert.ok(exports.includes(name), `no ${name}`);
});

for (const { specifier } of entries.filter((entry) => entry.json))
  test(`${specifier} imports as JSON, with no globals`, () => {
    const effects = importInNode(specifier, true);
    assert.deepEqual(effects.exports, ["default"]);
    assert.deepEqual(effects.globals, []);
  });

for (const { specifier } of entries.filter((entry) => entry.typesOnly))
  test(`${specifier} is types only: nothing to import at run time`, () => {
    assert.throws(() => importInNode(specifier), /ERR_PACKAGE_PATH_NOT_EXPORTED/);
  });
