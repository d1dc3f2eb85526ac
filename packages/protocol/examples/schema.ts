import schema from "@pi-kit/protocol/schema.json" with { type: "json" };
import { Ajv } from "ajv";

// Any JSON Schema validator in any language will do; here Ajv. Check a whole record, or one family.
const ajv = new Ajv({ allowUnionTypes: true }).addSchema(schema, "pi");
const isPiRecord = ajv.compile({ $ref: "pi" });
const isEvent = ajv.compile({ $ref: "pi#/definitions/RpcEvent" });

console.log(isPiRecord({ type: "turn_start" }), isEvent({ type: "turn_start" })); // true true
console.log(isEvent({ type: "thinking_level_changed", level: "extreme" })); // false
console.log(isPiRecord({ type: "prompt", message: "hi" }), isEvent({ type: "prompt" })); // true false
