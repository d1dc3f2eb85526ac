/**
 * The renderers' scenes for screenshots.ts (tool views, message actions and streaming states),
 * photographed at 1280 and 390 px, light and dark.
 */
import type { PendingDialog } from "@pi-kit/client";
import type { AgentMessage, AssistantMessage, ToolResultMessage } from "@pi-kit/protocol";
import { answerOf, toolCallOf, toolResultOf } from "../test/support/helpers.ts";

/** The scenes this module draws. */
export const RENDER_SCENES = ["tool-views", "message-actions"];

const at = new Date(2026, 10, 30, 14, 5).getTime();

const call = toolCallOf;
const result = (name: string, text: string, extra: Partial<ToolResultMessage> = {}) =>
  toolResultOf(name, text, { timestamp: at, ...extra });
const answer = (text: string): AssistantMessage =>
  answerOf(text ? [{ type: "text", text }] : [], { timestamp: at });

const PATCH = `--- src/cli.ts
+++ src/cli.ts
@@ -12,6 +12,7 @@
 export function main(argv: string[]): number {
   const args = parse(argv);
-  const format = args.json ? "json" : "text";
+  const format = args.format ?? "text";
+  if (!FORMATS.includes(format)) return usage(\`unknown format: \${format}\`);
   const value = run(args);
   console.log(print(value, format));
   return 0;
`;

const FILE = `import { describe, expect, it } from "vitest";
import { print } from "../src/print.ts";

describe("print", () => {
  it("prints JSON", () => {
    expect(print({ a: 1 }, "json")).toBe('{"a":1}');
  });
  it("prints text", () => {
    expect(print("hi", "text")).toBe("hi");
  });
  it("rejects unknown formats", () => {
    expect(() => print(1, "yaml" as never)).toThrow(/format/);
  });
});
`;

const BASH = [
  "\u001b[1m> pi-cli@1.4.0 test\u001b[22m",
  "",
  " \u001b[32m✓\u001b[39m test/print.test.ts \u001b[2m(3 tests)\u001b[22m",
  " \u001b[31m✗\u001b[39m test/cli.test.ts \u001b[2m(2 tests | 1 failed)\u001b[22m",
  "   \u001b[31mAssertionError: expected 'text' to be 'json'\u001b[39m",
  "",
  " \u001b[1mTest Files\u001b[22m  \u001b[31m1 failed\u001b[39m | \u001b[32m1 passed\u001b[39m (2)",
  "Command exited with code 1",
].join("\n");

const confirm: PendingDialog = {
  request: {
    type: "extension_ui_request",
    id: "d1",
    method: "confirm",
    title: "Allow this command?",
    message: "rm -rf dist && npm run build",
  },
  openedAt: at,
  deadline: undefined,
  runBound: true,
} as PendingDialog;

function toolCall(props: Record<string, unknown>): HTMLElement {
  const el = document.createElement("pi-tool-call");
  Object.assign(el, props);
  return el;
}

function message(m: AgentMessage, props: Record<string, unknown> = {}): HTMLElement {
  const el = document.createElement("pi-message");
  Object.assign(el, { message: m, ...props });
  return el;
}

/** Fills `column` with the scene `name`. */
export function drawScene(name: string, column: HTMLElement): void {
  if (name === "tool-views") {
    column.append(
      toolCall({
        call: call("edit", { path: "src/cli.ts", edits: [] }),
        result: result("edit", "Successfully replaced 1 block(s) in src/cli.ts.", {
          details: { patch: PATCH },
          durationMs: 12,
        }),
      }),
      toolCall({
        call: call("write", { path: "test/print.test.ts", content: FILE }),
        result: result("write", "Wrote 14 lines to test/print.test.ts"),
      }),
      toolCall({
        call: call("read", { path: "src/print.ts", offset: 1 }),
        result: result(
          "read",
          'export type Format = "json" | "text";\n\nexport function print(value: unknown, format: Format): string {\n  return format === "json" ? JSON.stringify(value) : String(value);\n}',
        ),
      }),
      toolCall({
        call: call("bash", { command: "npm test" }),
        result: result("bash", BASH, { isError: true, durationMs: 2300 }),
      }),
      toolCall({
        call: call("bash", { command: "rm -rf dist && npm run build" }),
        execution: {
          toolCallId: "bash",
          toolName: "bash",
          args: {},
          parentToolCallId: undefined,
          status: "running",
          partialResult: undefined,
          result: undefined,
          durationMs: undefined,
        },
        dialog: confirm,
      }),
    );
    return;
  }
  const act = (): void => {};
  column.append(
    message(
      {
        role: "user",
        content: "Add a `--format` flag and show me an image of the output",
        timestamp: at,
      },
      { act },
    ),
    message(
      answer(
        'Done. `--format` takes `json` or `text`:\n\n```ts\nconst format = args.format ?? "text";\n```\n\nHere is the output: ![terminal](https://images.example.com/output.png)',
      ),
      { act, last: true },
    ),
    message({ role: "user", content: "And the tests?", timestamp: at + 60_000 }, { act }),
    message(answer("The tests **now cover** both formats and the error for an unknown one"), {
      streaming: true,
    }),
    message(answer(""), { streaming: true }),
  );
  // Actions show on hover; show them all in the picture.
  const style = document.createElement("style");
  style.textContent = "pi-message::part(actions) { opacity: 1 }";
  column.append(style);
}
