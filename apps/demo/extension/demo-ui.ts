/**
 * The demo's pi extension (loaded with `-e`): slash commands that exercise every extension-UI
 * method, so every part of `<pi-dialog>`, the toasts and the status areas can be seen. (The
 * questions before a shell command come from pi-kit's permission extension, which the bridge loads.)
 *
 * Self-contained (no imports) so pi loads it unchanged; the types below describe only what it uses.
 * @module
 */

interface DialogOptions {
  readonly signal?: AbortSignal;
  readonly timeout?: number;
}

interface DemoUi {
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

interface DemoContext {
  readonly ui: DemoUi;
}

interface DemoApi {
  registerCommand(
    name: string,
    command: { description?: string; handler: (args: string, ctx: DemoContext) => Promise<void> },
  ): void;
}

/** What a dialog returned, in words: yes / no, the text chosen or typed, or cancelled. */
function describe(value: unknown): string {
  if (value === undefined || value === null) return "cancelled";
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "string") return value === "" ? "nothing typed" : `“${value}”`;
  if (typeof value === "object")
    return Object.entries(value)
      .map(([name, inner]) => `${name} ${describe(inner)}`)
      .join(", ");
  return String(value);
}

/** Shows what a dialog returned, as pi's extension saw it. */
function report(ui: DemoUi, what: string, value: unknown): void {
  ui.notify(`${what}: ${describe(value)}`);
}

/** The demo commands: name, description and what it does. */
const commands: Record<string, [string, (ui: DemoUi, args: string) => Promise<void> | void]> = {
  "demo-confirm": [
    "Ask a yes/no question",
    async (ui) =>
      report(ui, "confirm", await ui.confirm("Deploy to staging?", "This runs the deploy script.")),
  ],
  "demo-select": [
    "Pick from a list",
    async (ui) =>
      report(
        ui,
        "select",
        await ui.select("Which test suite?", ["unit", "integration", "end-to-end"]),
      ),
  ],
  "demo-input": [
    "Ask for a line of text",
    async (ui) => report(ui, "input", await ui.input("Branch name", "feature/…")),
  ],
  "demo-editor": [
    "Edit a multi-line text",
    async (ui) =>
      report(
        ui,
        "editor",
        await ui.editor(
          "Commit message",
          "Fix the login bug\n\nThe session cookie expired too early.",
        ),
      ),
  ],
  "demo-timeout": [
    "A confirm that expires after 10 s",
    async (ui) =>
      report(
        ui,
        "confirm with timeout",
        await ui.confirm("Continue?", "This question expires in 10 seconds.", { timeout: 10_000 }),
      ),
  ],
  "demo-select-timeout": [
    "A select that expires after 15 s",
    async (ui) =>
      report(
        ui,
        "select with timeout",
        await ui.select("Quick, pick one", ["red", "green", "blue"], { timeout: 15_000 }),
      ),
  ],
  "demo-two": [
    "Two dialogs at once",
    async (ui) => {
      const [a, b] = await Promise.all([
        ui.confirm("First question", "Two dialogs are open."),
        ui.input("Second question", "anything"),
      ]);
      report(ui, "two dialogs", { confirm: a, input: b ?? null });
    },
  ],
  "demo-notify": [
    "Notifications of each kind",
    (ui) => {
      ui.notify("Build finished");
      ui.notify("3 tests are flaky", "warning");
      ui.notify("Deploy failed: permission denied", "error");
    },
  ],
  "demo-status": [
    "Set, then clear, an extension status",
    (ui, args) => ui.setStatus("demo", args.trim() === "clear" ? undefined : "indexing 42 files…"),
  ],
  "demo-widgets": [
    "Widgets above and below the composer",
    (ui, args) => {
      const clear = args.trim() === "clear";
      ui.setWidget(
        "demo-above",
        clear ? undefined : ["Current task: fix the login bug", "Branch: fix/login"],
      );
      ui.setWidget("demo-below", clear ? undefined : ["Tip: /demo-widgets clear removes these"], {
        placement: "belowEditor",
      });
    },
  ],
  "demo-title": [
    "Set the title",
    (ui, args) => ui.setTitle(args.trim() || "pi-kit demo: login bug"),
  ],
  "demo-editor-text": [
    "Fill the composer",
    (ui) => ui.setEditorText("Summarise the last change in one sentence."),
  ],
};

/** Registers the demo commands. */
export default function demoUi(pi: DemoApi): void {
  for (const [name, [description, run]] of Object.entries(commands)) {
    pi.registerCommand(name, { description, handler: async (args, ctx) => run(ctx.ui, args) });
  }
}
