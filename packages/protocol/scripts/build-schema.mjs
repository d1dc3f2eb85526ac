#!/usr/bin/env node
// Generates `schema.json`, the JSON Schema (draft-07) of every record of pi's RPC mode, from this
// package's TypeScript types with ts-json-schema-generator. `--check` fails instead of writing
// when the file on disk is not what the types generate now. Runs on Node 22 (the generator needs
// it; npm scripts put the `node@22` dev dependency first on PATH).
import { readFileSync, writeFileSync } from "node:fs";
import { createGenerator } from "ts-json-schema-generator";

const pkg = new URL("..", import.meta.url);
const out = new URL("schema.json", pkg);

/** The five record families; the schema's root accepts any of them. */
const ROOTS = {
  RpcCommand: "A command a client writes to pi's stdin.",
  ExtensionUiResponse: "A client's answer to an extension dialog, written to pi's stdin.",
  RpcResponse: "pi's response to a command.",
  RpcEvent: "An event pi emits while it works.",
  ExtensionUiRequest: "An extension-UI request from pi (a dialog, or fire-and-forget UI).",
};

const generator = createGenerator({
  path: new URL("src/index.ts", pkg).pathname,
  tsconfig: new URL("tsconfig.json", pkg).pathname,
  // pi adds fields between releases: a record with more than the types know stays valid.
  additionalProperties: true,
  expose: "export",
  jsDoc: "extended",
  skipTypeCheck: true,
  sortProps: true,
});

const definitions = {};
for (const type of Object.keys(ROOTS))
  Object.assign(definitions, generator.createSchema(type).definitions);

const schema = {
  $schema: "http://json-schema.org/draft-07/schema#",
  title: "pi RPC mode records",
  description:
    "Every JSON record of pi's RPC mode (`pi --mode rpc`, JSON lines over stdin/stdout) as pi 0.73.x and 1.x write and read it. Generated from @pi-kit/protocol's TypeScript types; validate one record against the root or against `#/definitions/<Type>`.",
  anyOf: Object.entries(ROOTS).map(([name, description]) => ({
    $ref: `#/definitions/${name}`,
    description,
  })),
  definitions: Object.fromEntries(
    Object.entries(definitions).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  ),
};
const text = `${JSON.stringify(schema, null, 2)}\n`;

if (process.argv.includes("--check")) {
  if (readFileSync(out, "utf8") !== text) {
    console.error("schema.json is out of date: run `npm run build -w @pi-kit/protocol`.");
    process.exit(1);
  }
  console.log("schema.json is current.");
} else writeFileSync(out, text);
