/**
 * `schema.json` (generated from the types by `scripts/build-schema.mjs`) against pi's recorded
 * transcripts of both release lines: every record each side wrote validates, against its own
 * family's definition, and records the types reject are rejected by the schema too.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { describe, test } from "node:test";
import {
  COMMAND_TYPES,
  EVENT_TYPES,
  parseInbound,
  parseTranscript,
  UI_METHODS,
} from "@pi-kit/protocol";
import { Ajv, type ValidateFunction } from "ajv";

const schema = JSON.parse(readFileSync(new URL("../schema.json", import.meta.url), "utf8"));
const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
ajv.addSchema(schema, "pi");
const family = (name: string): ValidateFunction => {
  const validate = ajv.getSchema(`pi#/definitions/${name}`);
  assert.ok(validate, `schema.json has no definition ${name}`);
  return validate;
};
const root = ajv.getSchema("pi") as ValidateFunction;
const command = family("RpcCommand");
const uiResponse = family("ExtensionUiResponse");
const response = family("RpcResponse");
const event = family("RpcEvent");
const uiRequest = family("ExtensionUiRequest");

function check(validate: ValidateFunction, record: unknown, where: string): void {
  const ok = validate(record);
  assert.ok(ok, `${where}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(record)}`);
  assert.ok(root(record), `${where}: the root schema rejects it`);
}

/** The `const` values a definition's union allows for `key`. */
function constsOf(name: string, key: string): string[] {
  const def = schema.definitions[name] as { anyOf: { $ref: string }[] };
  return def.anyOf.map((member) => {
    const target = schema.definitions[member.$ref.replace("#/definitions/", "")];
    return target.properties[key].const as string;
  });
}

for (const version of ["pi-0.73.1", "pi-1.6.0"]) {
  describe(`schema.json against the ${version} transcripts`, () => {
    const dir = new URL(`./fixtures/${version}/`, import.meta.url);
    const files = readdirSync(dir).filter((name) => name.endsWith(".jsonl"));
    test("there are transcripts", () => assert.ok(files.length >= 8));
    for (const file of files.sort()) {
      test(file, () => {
        const entries = parseTranscript(readFileSync(new URL(file, dir), "utf8"));
        let checked = 0;
        for (const [i, entry] of entries.entries()) {
          const where = `${file}:${i + 1}`;
          const record: { type?: unknown } = JSON.parse(entry.record);
          if (entry.dir === "out") {
            check(record.type === "extension_ui_response" ? uiResponse : command, record, where);
          } else {
            const inbound = parseInbound(entry.record);
            if (inbound.kind === "response") check(response, record, where);
            else if (inbound.kind === "event") check(event, record, where);
            else if (inbound.kind === "ui_request") check(uiRequest, record, where);
            else assert.fail(`${where}: pi wrote a record of kind ${inbound.kind}`);
          }
          checked++;
        }
        assert.ok(checked > 0);
      });
    }
  });
}

describe("schema.json covers the catalog", () => {
  test("every command", () =>
    assert.deepEqual(constsOf("RpcCommand", "type").sort(), [...COMMAND_TYPES].sort()));
  test("every event", () =>
    assert.deepEqual(constsOf("RpcEvent", "type").sort(), [...EVENT_TYPES].sort()));
  test("every UI method", () =>
    assert.deepEqual(constsOf("ExtensionUiRequest", "method").sort(), [...UI_METHODS].sort()));
});

describe("schema.json rejects what the types reject", () => {
  const bad: [ValidateFunction, unknown][] = [
    [command, { type: "set_steering_mode", mode: "sometimes" }],
    [command, { type: "prompt" }],
    [command, { type: "frobnicate" }],
    [uiResponse, { type: "extension_ui_response", id: "1", confirmed: "yes" }],
    [response, { type: "response", command: "get_state", success: true, data: { model: 1 } }],
    [response, { type: "response", success: false }],
    [event, { type: "turn_end" }],
    [event, { type: "thinking_level_changed", level: "extreme" }],
    [uiRequest, { type: "extension_ui_request", id: "1", method: "select", title: "Pick" }],
  ];
  for (const [validate, record] of bad)
    test(JSON.stringify(record), () => assert.equal(validate(record), false));
});
