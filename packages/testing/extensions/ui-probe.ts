/**
 * ui-probe: a pi extension (load with `-e`) that exercises every extension-UI method over RPC.
 *
 * - `/ui <mode> [args]` opens dialogs or sends fire-and-forget UI requests. Each dialog's
 *   outcome is reported back as `notify("result: <mode>=<JSON value>")` (`undefined` when
 *   the dialog was cancelled or timed out), so a client test can assert on the answer pi saw.
 *   Modes: `confirm`, `select`, `input`, `editor`, `two` (confirm + select at once),
 *   `timeout <ms>` (confirm with a timeout), `abort <ms>` (confirm dismissed by an AbortSignal),
 *   `later <ms>` (a confirm opened after the command returned, dismissed by an AbortSignal after
 *   `ms`: no call or run is pending when it opens), `exit` (shuts pi down),
 *   `notify`, `status [clear]`, `widget [below|clear]`, `title [text]`, `editor-text [text]`.
 * - A `tool_call` hook asks `confirm` (passing the run's abort signal) before any bash command
 *   containing `CONFIRM`, and blocks the command when the answer is no.
 *
 * Self-contained on purpose: it imports nothing, so pi 0.73.1 and 1.x both load it unchanged.
 * @module
 */

/** Options of dialog methods (same shape in pi 0.73.1 and 1.x). */
interface DialogOptions {
  readonly signal?: AbortSignal;
  readonly timeout?: number;
}

/** The subset of `ctx.ui` this probe uses. */
interface ProbeUi {
  confirm(title: string, message: string, options?: DialogOptions): Promise<boolean>;
  select(title: string, options: string[], dialog?: DialogOptions): Promise<string | undefined>;
  input(title: string, placeholder?: string, options?: DialogOptions): Promise<string | undefined>;
  editor(title: string, prefill?: string): Promise<string | undefined>;
  notify(message: string, type?: "info" | "warning" | "error"): void;
  setStatus(key: string, text: string | undefined): void;
  setWidget(
    key: string,
    lines: string[] | undefined,
    options?: { placement?: "aboveEditor" | "belowEditor" },
  ): void;
  setTitle(title: string): void;
  setEditorText(text: string): void;
}

/** The subset of the extension context this probe uses. */
interface ProbeContext {
  readonly ui: ProbeUi;
  readonly signal?: AbortSignal;
  /** Shuts pi down gracefully (0.73.1 and 1.x). */
  shutdown(): void;
}

/** The subset of a `tool_call` event this probe uses. */
interface ToolCallEvent {
  readonly toolName: string;
  readonly input: Readonly<Record<string, unknown>>;
}

/** The subset of `ExtensionAPI` this probe uses. */
interface ProbeApi {
  registerCommand(
    name: string,
    command: {
      description?: string;
      handler: (args: string, ctx: ProbeContext) => Promise<void>;
    },
  ): void;
  on(
    event: "tool_call",
    handler: (
      event: ToolCallEvent,
      ctx: ProbeContext,
    ) => Promise<{ block: true; reason: string } | undefined>,
  ): void;
}

/** `result: <mode>=<value>`, with `undefined` spelled out (JSON has no undefined). */
function result(mode: string, value: unknown): string {
  return `result: ${mode}=${value === undefined ? "undefined" : JSON.stringify(value)}`;
}

async function run(mode: string, rest: string, ctx: ProbeContext): Promise<void> {
  const ui = ctx.ui;
  switch (mode) {
    case "confirm":
      ui.notify(result(mode, await ui.confirm("Sure?", rest || "Really do it?")));
      return;
    case "select":
      ui.notify(result(mode, await ui.select(rest || "Pick one", ["A", "B", "C"])));
      return;
    case "input":
      ui.notify(result(mode, await ui.input(rest || "Name", "your name")));
      return;
    case "editor":
      ui.notify(result(mode, await ui.editor(rest || "Edit text", "line1\nline2")));
      return;
    case "two": {
      // Two dialogs pending at once: clients must key dialogs by request id.
      const [confirmed, picked] = await Promise.all([
        ui.confirm("First?", "One of two dialogs"),
        ui.select("Second?", ["X", "Y"]),
      ]);
      ui.notify(result(mode, { confirm: confirmed, select: picked ?? null }));
      return;
    }
    case "timeout": {
      const timeout = Number.parseInt(rest, 10) || 1500;
      ui.notify(result(mode, await ui.confirm("Sure (timeout)?", "msg", { timeout })));
      return;
    }
    case "abort": {
      const signal = AbortSignal.timeout(Number.parseInt(rest, 10) || 1000);
      ui.notify(result(mode, await ui.confirm("Sure (abortable)?", "msg", { signal })));
      return;
    }
    case "later": {
      const ms = Number.parseInt(rest, 10) || 1000;
      setTimeout(() => {
        const signal = AbortSignal.timeout(ms);
        void ui
          .confirm("Later?", "opened after the command", { signal })
          .then((value) => ui.notify(result(mode, value)));
      }, 50);
      return;
    }
    case "exit":
      ctx.shutdown();
      return;
    case "notify":
      ui.notify(rest || "plain notify");
      ui.notify("warn notify", "warning");
      ui.notify("error notify", "error");
      return;
    case "status":
      ui.setStatus("probe", rest === "clear" ? undefined : rest || "working");
      return;
    case "widget":
      if (rest === "clear") ui.setWidget("probe", undefined);
      else if (rest === "below") ui.setWidget("probe", ["below"], { placement: "belowEditor" });
      else ui.setWidget("probe", ["line a", "line b"]);
      return;
    case "title":
      ui.setTitle(rest || "pi-kit probe");
      return;
    case "editor-text":
      ui.setEditorText(rest || "prefilled editor text");
      return;
    default:
      ui.notify(`ui-probe: unknown mode "${mode}"`, "error");
  }
}

/** Registers `/ui` and the bash `CONFIRM` hook. */
export default function uiProbe(pi: ProbeApi): void {
  pi.registerCommand("ui", {
    description: "ui-probe: open an extension UI dialog (confirm, select, input, editor, two, …)",
    handler: async (args, ctx) => {
      const [mode = "", ...rest] = args.trim().split(/\s+/);
      await run(mode, rest.join(" "), ctx);
    },
  });

  pi.on("tool_call", async (event, ctx) => {
    const command = event.input.command;
    if (event.toolName !== "bash" || typeof command !== "string" || !command.includes("CONFIRM")) {
      return undefined;
    }
    const ok = await ctx.ui.confirm("Run command?", command, { signal: ctx.signal });
    ctx.ui.notify(result("tool_call", ok));
    return ok ? undefined : { block: true, reason: "Blocked by user" };
  });
}
