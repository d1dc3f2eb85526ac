/**
 * A scripted `pi --mode rpc` for the end-to-end benchmark: it answers the commands a client sends
 * while connecting (its transcript holds as many messages as its name ends in: the session
 * directory's, `h2000`, or `E2E_NAME`), and writes what the benchmark orders on its control
 * socket (`E2E_CONTROL_PORT`): the start of an answer, then one text delta at a time, replying
 * with the time each delta's line was written to stdout. Writes to a pipe are synchronous on
 * Linux, so that time is when the line left pi. Run by Node 22 (type stripping), node: only.
 */
import { connect } from "node:net";
import { basename } from "node:path";
import process from "node:process";

const now = (): number => performance.timeOrigin + performance.now();
const write = (record: object): void => {
  process.stdout.write(`${JSON.stringify(record)}\n`);
};

const dirArg = process.argv.indexOf("--session-dir");
const name =
  process.env.E2E_NAME ?? (dirArg === -1 ? "pi" : basename(process.argv[dirArg + 1] ?? "pi"));
const historySize = Number(/(\d+)$/.exec(name)?.[1] ?? 0);

const usage = {
  input: 1,
  output: 1,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 2,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};
const assistant = (text: string) => ({
  role: "assistant",
  content: [{ type: "text", text }],
  api: "openai-completions",
  provider: "bench",
  model: "scripted",
  usage,
  stopReason: "stop",
  timestamp: 0,
});

/** The transcript: questions and answers with some markdown, as a chat history holds. */
const history = Array.from({ length: historySize }, (_, i) =>
  i % 2 === 0
    ? { role: "user", content: `Question ${i}: how does part ${i} work?`, timestamp: 0 }
    : assistant(
        `Answer ${i}, with *markdown*:\n\n- one point\n- another\n\n\`\`\`js\nconst v = ${i};\n\`\`\``,
      ),
);
const state = () => ({
  thinkingLevel: "off",
  isStreaming: false,
  isCompacting: false,
  steeringMode: "one-at-a-time",
  followUpMode: "one-at-a-time",
  sessionId: name,
  autoCompactionEnabled: false,
  messageCount: history.length,
  pendingMessageCount: 0,
});

const answers: Record<string, () => unknown> = {
  get_state: state,
  get_messages: () => ({ messages: history }),
  get_available_thinking_levels: () => ({ levels: ["off"] }),
  get_entries: () => ({ entries: [], leafId: null }),
  get_tree: () => ({ tree: [], leafId: null }),
  get_commands: () => ({ commands: [] }),
  get_available_models: () => ({ models: [] }),
  prompt: () => ({ disposition: "started" }),
};

function command(line: string): void {
  const { id, type } = JSON.parse(line) as { id?: string; type: string };
  const data = answers[type]?.();
  write({
    id,
    type: "response",
    command: type,
    success: true,
    ...(data === undefined ? {} : { data }),
  });
}

let buffered = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk: string) => {
  buffered += chunk;
  for (let lf = buffered.indexOf("\n"); lf !== -1; lf = buffered.indexOf("\n")) {
    command(buffered.slice(0, lf));
    buffered = buffered.slice(lf + 1);
  }
});
// The bridge stops pi by closing its stdin.
process.stdin.on("end", () => process.exit(0));

// The benchmark's orders, one JSON line each; each is answered with its id.
const control = connect(Number(process.env.E2E_CONTROL_PORT), "127.0.0.1");
control.setNoDelay(true);
control.write(`${JSON.stringify({ hello: name })}\n`);
let orders = "";
control.setEncoding("utf8");
control.on("data", (chunk: string) => {
  orders += chunk;
  for (let lf = orders.indexOf("\n"); lf !== -1; lf = orders.indexOf("\n")) {
    const order = JSON.parse(orders.slice(0, lf)) as { id: number; op: string; text?: string };
    orders = orders.slice(lf + 1);
    let at: number;
    if (order.op === "start") {
      write({ type: "agent_start" });
      write({ type: "message_start", message: assistant("") });
      at = now();
    } else if (order.op === "delta") {
      write({
        type: "message_update",
        assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: order.text },
      });
      at = now();
    } else {
      // "clock": only the time, to align this process's clock with the benchmark's.
      at = now();
    }
    control.write(`${JSON.stringify({ id: order.id, at })}\n`);
  }
});
control.on("error", () => process.exit(1));
