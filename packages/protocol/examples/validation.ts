import { COMMAND_TYPES, parseInbound, validateCommand } from "@pi-kit/protocol";

// pi validates nothing: {"type":"bash"} runs the shell command "undefined". Check before sending.
const problem = validateCommand({ type: "set_steering_mode", mode: "sometimes" });
console.log(problem?.code, problem?.message);

// parseInbound never throws: junk comes back as a typed error that keeps the raw text.
const inbound = parseInbound("null");
if (inbound.kind === "error") console.log(inbound.error.code, JSON.stringify(inbound.error.raw));

console.log(`${COMMAND_TYPES.length} commands`);
