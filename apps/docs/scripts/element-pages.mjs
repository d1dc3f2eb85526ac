// Writes one Markdown page per custom element into src/content/docs/elements/ from the elements'
// custom-elements.json (description, properties and attributes, methods, events, slots, CSS parts
// and custom properties) and the event classes' declarations from api-report.md. Nothing in these
// pages is written by hand: they are generated before every build and dev start, and not committed.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const here = resolve(import.meta.dirname, "..");
const elementsDir = join(here, "..", "..", "packages", "elements");
export const elementPagesDir = join(here, "src", "content", "docs", "elements");

/** The live example shown at the top of each element's page (see src/examples/). */
export const EXAMPLE_OF = {
  "pi-changes": "changes",
  "pi-chat": "chat-thinking",
  "pi-composer": "composer",
  "pi-message-list": "chat-streaming",
  "pi-message": "chat-thinking",
  "pi-tool-call": "tool-diff",
  "pi-dialog": "dialog-waiting",
  "pi-fork-picker": "fork-picker",
  "pi-markdown": "markdown",
  "pi-model-picker": "model-picker",
  "pi-provider": "provider",
  "pi-session-list": "session-list",
  "pi-session-stats": "session-stats",
  "pi-session-tree": "session-tree",
  "pi-slash-menu": "composer",
  "pi-thinking-picker": "thinking-picker",
  "pi-toasts": "toasts",
};

/** The entry that registers a tag `@pi-kit/elements/define` leaves out (a page loads it when shown). */
const REGISTERED_BY = {
  "pi-changes": "@pi-kit/elements/changes",
  "pi-pair": "@pi-kit/elements/pair",
};

/** Every element declaration of the manifest, with its module path. */
export function manifestElements() {
  const manifest = JSON.parse(readFileSync(join(elementsDir, "custom-elements.json"), "utf8"));
  return manifest.modules.flatMap((module) =>
    (module.declarations ?? [])
      .filter((d) => d.tagName)
      .map((d) => ({ ...d, modulePath: module.path })),
  );
}

/** `export declare class X …` declarations of the elements' API report, by name. */
function reportDeclarations() {
  const report = readFileSync(join(elementsDir, "api-report.md"), "utf8");
  const byName = new Map();
  for (const chunk of report.split(/\n\n+/)) {
    const name = /^export declare (?:class|interface|type) (\w+)/.exec(chunk)?.[1];
    if (name && !byName.has(name)) byName.set(name, chunk.replace(/\n```[\s\S]*$/, "").trim());
  }
  return byName;
}

/** Text for a table cell: one line, pipes escaped. */
const cell = (text) => (text ?? "").replace(/\s*\n\s*/g, " ").replace(/\|/g, "\\|");
/** Inline code for a table cell (a backtick inside the value widens the fence). */
const code = (text) => {
  if (!text) return "";
  const value = cell(text);
  return value.includes("`") ? `\`\` ${value} \`\`` : `\`${value}\``;
};
/** TSDoc `{@link X}` as plain code. */
const prose = (text) => cell((text ?? "").replace(/\{@link(?:code)? ([^}]+)\}/g, "`$1`"));

const isPublicField = (m) =>
  m.kind === "field" &&
  !m.static &&
  (m.privacy ?? "public") === "public" &&
  !m.name.startsWith("#");
const isPublicMethod = (m) =>
  m.kind === "method" &&
  !m.static &&
  (m.privacy ?? "public") === "public" &&
  !m.name.startsWith("#");

function table(headers, rows) {
  return [
    `| ${headers.join(" | ")} |`,
    `| ${headers.map(() => "---").join(" | ")} |`,
    ...rows.map((r) => `| ${r.join(" | ")} |`),
  ].join("\n");
}

/** The Markdown page of one element. */
export function elementPage(d, declarations) {
  const members = d.members ?? [];
  const fields = members.filter(isPublicField);
  const attributes = d.attributes ?? [];
  const out = [
    "---",
    `title: "<${d.tagName}>"`,
    `description: ${JSON.stringify(cell(d.summary ?? d.description ?? "").split(/(?<=\.) /)[0])}`,
    `example: ${EXAMPLE_OF[d.tagName] ?? "none"}`,
    "---",
    "",
    REGISTERED_BY[d.tagName] === undefined
      ? `\`${d.tagName}\` is the class \`${d.name}\`, exported by \`@pi-kit/elements\` (source: \`packages/elements/${d.modulePath}\`); importing \`@pi-kit/elements/define\` registers it.`
      : `\`${d.tagName}\` is the class \`${d.name}\`, exported by \`${REGISTERED_BY[d.tagName]}\` (source: \`packages/elements/${d.modulePath}\`), which registers it when imported (\`@pi-kit/elements/define\` leaves it out: load it when the page shows it).`,
    "",
    (d.description ?? "").replace(/\{@link(?:code)? ([^}]+)\}/g, "`$1`"),
    "",
    "## Properties and attributes",
    "",
  ];
  const rows = fields.map((f) => [
    code(f.name),
    code(f.attribute ?? attributes.find((a) => a.fieldName === f.name)?.name ?? ""),
    code(f.type?.text),
    code(f.default),
    prose(f.description),
  ]);
  for (const a of attributes) {
    if (a.fieldName && fields.some((f) => f.name === a.fieldName)) continue;
    rows.push(["", code(a.name), code(a.type?.text), code(a.default), prose(a.description)]);
  }
  out.push(
    rows.length
      ? table(["Property", "Attribute", "Type", "Default", "Description"], rows)
      : "None.",
  );
  const methods = members.filter(isPublicMethod);
  out.push("", "## Methods", "");
  out.push(
    methods.length
      ? table(
          ["Method", "Returns", "Description"],
          methods.map((m) => [
            code(
              `${m.name}(${(m.parameters ?? []).map((p) => `${p.name}${p.optional ? "?" : ""}: ${p.type?.text ?? "unknown"}`).join(", ")})`,
            ),
            code(m.return?.type?.text ?? "void"),
            prose(m.description),
          ]),
        )
      : "None.",
  );
  const events = d.events ?? [];
  out.push("", "## Events", "");
  out.push(
    events.length
      ? table(
          ["Event", "Type", "Description"],
          events.map((e) => [code(e.name), code(e.type?.text), prose(e.description)]),
        )
      : "None.",
  );
  const classes = [...new Set(events.map((e) => e.type?.text).filter((t) => declarations.has(t)))];
  if (classes.length) {
    out.push("", "What each event carries (from the API report):", "", "```ts");
    out.push(classes.map((t) => declarations.get(t)).join("\n\n"), "```");
  }
  const sections = [
    [
      "Slots",
      d.slots,
      (s) => [code(s.name || "(default)"), prose(s.description)],
      ["Slot", "Description"],
    ],
    ["CSS parts", d.cssParts, (p) => [code(p.name), prose(p.description)], ["Part", "Description"]],
    [
      "CSS custom properties",
      d.cssProperties,
      (p) => [code(p.name), code(p.default), prose(p.description)],
      ["Property", "Default", "Description"],
    ],
  ];
  for (const [title, list, row, headers] of sections) {
    out.push("", `## ${title}`, "");
    out.push(list?.length ? table(headers, list.map(row)) : "None.");
  }
  return `${out.join("\n")}\n`;
}

/** Regenerates every element page. */
export function generateElementPages() {
  const declarations = reportDeclarations();
  rmSync(elementPagesDir, { recursive: true, force: true });
  mkdirSync(elementPagesDir, { recursive: true });
  for (const d of manifestElements()) {
    writeFileSync(join(elementPagesDir, `${d.tagName}.md`), elementPage(d, declarations));
  }
}
