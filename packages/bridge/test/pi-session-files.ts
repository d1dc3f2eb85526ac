/**
 * Writes session files exactly as pi (0.73.1 and 1.x) writes them: a version-3 header, the model
 * and thinking-level entries of a new session, then user, assistant and tool-result messages
 * chained by `parentId`, with the fields pi's own files have (copied from files real pi wrote
 * against the scripted model). For tests and benchmarks that need many or long sessions fast.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** What to write. */
export interface PiSessionOptions {
  /** The working directory the header records. */
  readonly cwd: string;
  /** User turns; each is answered, and every fifth answer runs a `bash` tool first. */
  readonly turns: number;
  /** The first user message (later ones are numbered). */
  readonly firstPrompt?: string;
  /** A `session_info` entry naming the session, last. */
  readonly name?: string;
  /** End with a user message pi never answered (a run cut off). */
  readonly interrupted?: boolean;
  /** When the session started (epoch ms); entries follow a second apart. Default: now minus the turns. */
  readonly startMs?: number;
}

/** The provider and model of the kit's scripted model (`@pi-kit/testing`). */
const PROVIDER = "pikit";
const MODEL = "scripted";

/** The lines of a session file (without LFs), and the message count pi's list reports. */
export function piSessionLines(options: PiSessionOptions): { lines: string[]; messages: number } {
  const start = options.startMs ?? Date.now() - options.turns * 4000;
  let clock = start;
  let seq = 0;
  const tick = (): number => (clock += 1000);
  const iso = (ms: number): string => new Date(ms).toISOString();
  const id = (): string => (++seq).toString(16).padStart(8, "0");
  const sessionId = crypto.randomUUID();
  const lines: string[] = [
    JSON.stringify({
      type: "session",
      version: 3,
      id: sessionId,
      timestamp: iso(start),
      cwd: options.cwd,
    }),
  ];
  let parent: string | null = null;
  let messages = 0;
  const entry = (fields: Record<string, unknown>): void => {
    const entryId = id();
    lines.push(
      JSON.stringify({ ...fields, id: entryId, parentId: parent, timestamp: iso(tick()) }),
    );
    parent = entryId;
  };
  const message = (body: Record<string, unknown>): void => {
    messages++;
    entry({ type: "message", message: { ...body, timestamp: clock + 1000 } });
  };
  const usage = (input: number, output: number) => ({
    input,
    output,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: input + output,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  });
  const assistant = (content: unknown[], stopReason: string, n: number) => ({
    role: "assistant",
    content,
    api: "openai-completions",
    provider: PROVIDER,
    model: MODEL,
    usage: usage(20 * n, content.length * 40),
    stopReason,
    responseId: `chatcmpl-${n}`,
  });
  entry({ type: "model_change", provider: PROVIDER, modelId: MODEL });
  entry({ type: "thinking_level_change", thinkingLevel: "off" });
  for (let turn = 1; turn <= options.turns; turn++) {
    const prompt =
      turn === 1 && options.firstPrompt ? options.firstPrompt : `Question ${turn}: ${PROMPT}`;
    message({ role: "user", content: [{ type: "text", text: prompt }] });
    if (turn % 5 === 0) {
      const call = `call_${turn}_0`;
      message(
        assistant(
          [{ type: "toolCall", id: call, name: "bash", arguments: { command: `ls src/${turn}` } }],
          "toolUse",
          turn,
        ),
      );
      message({
        role: "toolResult",
        toolCallId: call,
        toolName: "bash",
        content: [{ type: "text", text: `index.ts\nmodule-${turn}.ts\nREADME.md\n` }],
        isError: false,
      });
    }
    message(assistant([{ type: "text", text: `Answer ${turn}. ${ANSWER}` }], "stop", turn));
  }
  if (options.interrupted) {
    message({
      role: "user",
      content: [{ type: "text", text: "One more thing [[slow 1000ms x 100]]" }],
    });
  }
  if (options.name !== undefined) entry({ type: "session_info", name: options.name });
  return { lines, messages };
}

/** Writes a session file into `dir` (created 0700); returns its path and message count. */
export function writePiSession(
  dir: string,
  options: PiSessionOptions,
): { path: string; messages: number } {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const { lines, messages } = piSessionLines(options);
  const header = JSON.parse(lines[0] as string) as { id: string; timestamp: string };
  const path = join(dir, `${header.timestamp.replace(/[:.]/g, "-")}_${header.id}.jsonl`);
  writeFileSync(path, `${lines.join("\n")}\n`, { mode: 0o600 });
  return { path, messages };
}

const PROMPT =
  "Look at the parser in `src/parser.ts` and tell me why a line that ends in a backslash is read twice. Keep the fix small.";

const ANSWER = [
  "The parser reads a continued line twice because `readLine` returns the backslash line and then",
  "`joinContinuation` starts again from the same offset. Here is the smallest fix:",
  "",
  "```ts",
  "function joinContinuation(lines: string[], at: number): [string, number] {",
  '  let text = lines[at] ?? "";',
  '  while (text.endsWith("\\\\") && at + 1 < lines.length) text = text.slice(0, -1) + lines[++at];',
  "  return [text, at + 1];",
  "}",
  "```",
  "",
  "- `readLine` now returns the index after the joined lines, so nothing is read twice.",
  "- The tests in `test/parser.test.ts` cover a line ending in one, two and three backslashes.",
].join("\n");
