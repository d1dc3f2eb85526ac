#!/usr/bin/env node
// Generates the package's JSON Schemas (draft-07) from its TypeScript types with
// ts-json-schema-generator: `schema.json`, every record of pi's RPC mode, and `bridge-schema.json`,
// what `@pi-kit/bridge` adds around them (its `bridge_*` records, close reasons, error bodies and
// history API bodies). `--check` fails instead of writing when a file on disk is not what the
// types generate now. The generator stays on 2.4 (with its own TypeScript 5.9): 2.5 and later
// need Node 22, and their schemas are the same.
import { readFileSync, writeFileSync } from "node:fs";
import { createGenerator } from "ts-json-schema-generator";

const pkg = new URL("..", import.meta.url);

/** Each schema: its file, its entry module, its title and description, and its roots. */
const SCHEMAS = [
  {
    file: "schema.json",
    entry: "src/index.ts",
    title: "pi RPC mode records",
    description:
      "Every JSON record of pi's RPC mode (`pi --mode rpc`, JSON lines over stdin/stdout) as pi 0.73.x and 1.x write and read it. Generated from @pi-kit/protocol's TypeScript types; validate one record against the root or against `#/definitions/<Type>`.",
    // The five record families; the root accepts any of them.
    roots: {
      RpcCommand: "A command a client writes to pi's stdin.",
      ExtensionUiResponse: "A client's answer to an extension dialog, written to pi's stdin.",
      RpcResponse: "pi's response to a command.",
      RpcEvent: "An event pi emits while it works.",
      ExtensionUiRequest: "An extension-UI request from pi (a dialog, or fire-and-forget UI).",
    },
  },
  {
    file: "bridge-schema.json",
    entry: "src/bridge/index.ts",
    title: "pi-kit bridge protocol",
    description:
      "What @pi-kit/bridge adds to pi's RPC records (see schema.json for those): the `bridge_*` records on a session's WebSocket, the JSON reason of its close frames, the body of its HTTP errors, and the bodies of its history, changes, file search and upload APIs. Generated from @pi-kit/protocol's TypeScript types; validate against `#/definitions/<Type>` (the root accepts any of the roots). The protocol is described in docs/bridge-protocol.md.",
    // What travels on the socket either way, and what the HTTP API and close frames carry.
    roots: {
      BridgeRecord:
        "A record the bridge writes itself about control, dialogs, keepalive and pi's stderr (bridge → client).",
      BridgeRunSnapshotRecord:
        "The run in progress so far, sent to a connection that attaches mid-run (bridge → client).",
      BridgeTakeControlCommand: "A watcher asks to become the controller (client → bridge).",
      BridgeCloseReason:
        "The JSON reason of a close frame with a code 1008, 1009, 1013 or 4000-4999.",
      BridgeErrorBody: "The body of every error answer of the HTTP API.",
      SessionPage: "One page of the history: `GET /api/sessions`.",
      SessionSummary: "One session, as `{session}` answers of the history API carry it.",
      CheckpointList: "A session's checkpoints: `GET /api/sessions/{name}/checkpoints`.",
      ChangeSet:
        "The files changed since a checkpoint: `GET …/changes`, and the answer of a revert or restore.",
      FileDiff: "One file's diff since a checkpoint: `GET …/changes/diff`.",
      RevertFileBody: "The body of `POST …/changes/revert`.",
      FileSearchPage: "One page of a workspace file search: `GET /api/sessions/{name}/files`.",
      UploadQuota: "The upload limits and what a session used: `GET /api/sessions/{name}/uploads`.",
      UploadRequest: "The body of `POST /api/sessions/{name}/uploads`: the file to come.",
      UploadStatus:
        "One upload: the answer of `POST …/uploads`, `PUT …/uploads/{id}` and `GET …/uploads/{id}`.",
    },
  },
];

function generate({ entry, title, description, roots }) {
  const generator = createGenerator({
    path: new URL(entry, pkg).pathname,
    tsconfig: new URL("tsconfig.json", pkg).pathname,
    // pi (and the bridge) add fields between releases: a record with more than the types know stays valid.
    additionalProperties: true,
    expose: "export",
    jsDoc: "extended",
    skipTypeCheck: true,
    sortProps: true,
  });
  const definitions = {};
  for (const type of Object.keys(roots))
    Object.assign(definitions, generator.createSchema(type).definitions);
  // The generator keeps TSDoc's inline `{@link X}` as text: write it as code, as a reader expects.
  for (const definition of Object.values(definitions)) unlink(definition);
  const schema = {
    $schema: "http://json-schema.org/draft-07/schema#",
    title,
    description,
    anyOf: Object.entries(roots).map(([name, about]) => ({
      $ref: `#/definitions/${name}`,
      description: about,
    })),
    definitions: Object.fromEntries(
      Object.entries(definitions).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    ),
  };
  return `${JSON.stringify(schema, null, 2)}\n`;
}

/** Rewrites every `{@link X}` in the descriptions of `node` and its children as `` `X` ``. */
function unlink(node) {
  if (typeof node !== "object" || node === null) return;
  if (typeof node.description === "string") {
    node.description = node.description
      .replace(
        /\s*\{@link\s+([^\s}]+)\s*\}\s*([.,;:)]?)/g,
        (_match, name, punctuation) => ` \`${name}\`${punctuation || " "}`,
      )
      .trimEnd();
  }
  for (const value of Object.values(node)) unlink(value);
}

/** The file's text, or `undefined` when there is none yet. */
function current(file) {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

const check = process.argv.includes("--check");
let stale = false;
for (const spec of SCHEMAS) {
  const out = new URL(spec.file, pkg);
  const text = generate(spec);
  if (!check) writeFileSync(out, text);
  else if (current(out) !== text) {
    console.error(`${spec.file} is out of date: run \`npm run build -w @pi-kit/protocol\`.`);
    stale = true;
  } else console.log(`${spec.file} is current.`);
}
if (stale) process.exit(1);
