/**
 * pi-kit's permission modes, as a pi extension (loaded with `-e`; see {@link permissionModes}).
 * A blocking `tool_call` hook asks through `ctx.ui.select` before `edit`, `write` and `bash` run:
 *
 * - `ask`: every `edit`, `write` and `bash` call needs approval;
 * - `auto-edits`: edits and writes inside the workspace run, `bash` (and writes outside) ask;
 * - `full`: nothing asks.
 *
 * The answers are Allow once, Allow for this session (this tool; for `bash`, this exact command)
 * and Deny. A denied, cancelled or timed-out question blocks the call with a reason the model
 * reads. `/permissions <mode>` changes the mode, also during a run (pi runs an extension command
 * at once); the mode and the session's grants are saved as custom entries of pi's session file,
 * so they survive a reload and a restart of pi. The mode is published as the extension status
 * `pi-kit-permissions`, which hosts show and the bridge replays to whoever joins.
 *
 * Environment (set by the host): `PI_KIT_PERMISSION_MODE` (the starting mode, `ask` when unset),
 * `PI_KIT_PERMISSION_MODES` (the modes allowed, comma-separated; all when unset),
 * `PI_KIT_PERMISSION_TIMEOUT_MS` (how long a question waits before it denies; 5 minutes).
 *
 * Self-contained (only Node's own modules) so pi loads it from source or from `dist` unchanged;
 * the types below describe only what it uses of pi's extension API, the same on 0.73 and 1.x.
 * @module
 */
import { existsSync } from "node:fs";
import { isAbsolute, relative, resolve } from "node:path";

type Mode = "ask" | "auto-edits" | "full";
const MODES: readonly Mode[] = ["ask", "auto-edits", "full"];
/** The status key the mode is published under. */
const STATUS_KEY = "pi-kit-permissions";
/** Custom entry types in pi's session file. */
const MODE_ENTRY = "pi-kit-permission-mode";
const GRANT_ENTRY = "pi-kit-permission-grant";
const ALLOW_ONCE = "Allow once";
const ALLOW_SESSION = "Allow for this session";
const DENY = "Deny";
/** How much of a command or diff a question shows. */
const MAX_DETAIL_LINES = 24;
const MAX_DETAIL_CHARS = 2000;

interface Ui {
  select(
    title: string,
    options: string[],
    dialog?: { signal?: AbortSignal; timeout?: number },
  ): Promise<string | undefined>;
  notify(message: string, type?: "info" | "warning" | "error"): void;
  setStatus(key: string, text: string | undefined): void;
}

interface Entry {
  readonly type: string;
  readonly customType?: string;
  readonly data?: unknown;
}

interface Context {
  readonly ui: Ui;
  readonly cwd: string;
  readonly signal?: AbortSignal;
  readonly sessionManager: { getEntries(): readonly Entry[] };
}

interface ToolCall {
  readonly toolName: string;
  readonly input: Readonly<Record<string, unknown>>;
}

interface Api {
  registerCommand(
    name: string,
    command: { description?: string; handler: (args: string, ctx: Context) => Promise<void> },
  ): void;
  on(event: "session_start", handler: (event: unknown, ctx: Context) => Promise<void>): void;
  on(
    event: "tool_call",
    handler: (
      event: ToolCall,
      ctx: Context,
    ) => Promise<{ block: true; reason: string } | undefined>,
  ): void;
  appendEntry(customType: string, data?: unknown): void;
}

const env = process.env;

function isMode(value: unknown): value is Mode {
  return typeof value === "string" && (MODES as readonly string[]).includes(value);
}

/** The modes the operator allows (all when unset; unknown names are ignored). */
function allowedModes(): readonly Mode[] {
  const listed = (env.PI_KIT_PERMISSION_MODES ?? "").split(",").map((name) => name.trim());
  // Strictest first, whatever order they were listed in.
  const allowed = MODES.filter((mode) => listed.includes(mode));
  return allowed.length > 0 ? allowed : MODES;
}

/** The mode a session starts in: the operator's default if allowed, else the strictest allowed. */
function defaultMode(allowed: readonly Mode[]): Mode {
  const wanted = env.PI_KIT_PERMISSION_MODE;
  return isMode(wanted) && allowed.includes(wanted) ? wanted : (allowed[0] as Mode);
}

function timeoutMs(): number {
  const ms = Number(env.PI_KIT_PERMISSION_TIMEOUT_MS);
  return Number.isFinite(ms) && ms > 0 ? ms : 5 * 60_000;
}

/** `text` cut to what a dialog can show. */
function clip(text: string): string {
  const lines = text.split("\n");
  let shown = lines.slice(0, MAX_DETAIL_LINES).join("\n");
  if (shown.length > MAX_DETAIL_CHARS) shown = shown.slice(0, MAX_DETAIL_CHARS);
  return shown.length < text.length ? `${shown}\n…` : shown;
}

/** pi accepts `@path`; the path it means. */
function pathOf(input: Readonly<Record<string, unknown>>): string {
  const path = typeof input.path === "string" ? input.path : "";
  return path.startsWith("@") ? path.slice(1) : path;
}

function insideWorkspace(path: string, cwd: string): boolean {
  const rel = relative(cwd, resolve(cwd, path));
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/** The diff an `edit` call would apply, as removed and added lines. */
function editPreview(input: Readonly<Record<string, unknown>>): string {
  const edits = Array.isArray(input.edits) ? (input.edits as unknown[]) : [input];
  const lines: string[] = [];
  for (const edit of edits) {
    if (typeof edit !== "object" || edit === null) continue;
    const { oldText, newText } = edit as { oldText?: unknown; newText?: unknown };
    if (typeof oldText === "string")
      for (const line of oldText.split("\n")) lines.push(`- ${line}`);
    if (typeof newText === "string")
      for (const line of newText.split("\n")) lines.push(`+ ${line}`);
  }
  return lines.join("\n");
}

/** The question for a call: what it is and what it would do. */
function question(call: ToolCall, cwd: string): string {
  const path = pathOf(call.input);
  if (call.toolName === "bash")
    return `Run this command?\n${clip(String(call.input.command ?? ""))}`;
  if (call.toolName === "edit") return `Edit ${path}?\n${clip(editPreview(call.input))}`;
  const content = typeof call.input.content === "string" ? call.input.content : "";
  const bytes = new TextEncoder().encode(content).length;
  const verb = existsSync(resolve(cwd, path)) ? "Overwrite" : "Create";
  return `${verb} ${path}? (${bytes} bytes)\n${clip(content)}`;
}

/** What "Allow for this session" grants: the tool, or for `bash` this exact command. */
function grantKey(call: ToolCall): string {
  return call.toolName === "bash" ? `bash:${String(call.input.command ?? "")}` : call.toolName;
}

/** Registers the `/permissions` command and the `tool_call` gate. */
export default function permissionModes(pi: Api): void {
  const allowed = allowedModes();
  let mode = defaultMode(allowed);
  const grants = new Set<string>();

  pi.on("session_start", async (_event, ctx) => {
    mode = defaultMode(allowed);
    grants.clear();
    for (const entry of ctx.sessionManager.getEntries()) {
      if (entry.type !== "custom") continue;
      const data = entry.data as { mode?: unknown; key?: unknown } | undefined;
      if (entry.customType === MODE_ENTRY && isMode(data?.mode) && allowed.includes(data.mode))
        mode = data.mode;
      if (entry.customType === GRANT_ENTRY && typeof data?.key === "string") grants.add(data.key);
    }
    ctx.ui.setStatus(STATUS_KEY, mode);
  });

  pi.registerCommand("permissions", {
    description: `Set the permission mode: ${allowed.join(", ")}`,
    handler: async (args, ctx) => {
      const wanted = args.trim();
      if (wanted === "") {
        ctx.ui.notify(`Permission mode: ${mode} (allowed: ${allowed.join(", ")})`);
        return;
      }
      if (!isMode(wanted) || !allowed.includes(wanted)) {
        ctx.ui.notify(
          `Permission mode “${wanted}” is not allowed here; choose one of: ${allowed.join(", ")}`,
          "error",
        );
        return;
      }
      mode = wanted;
      pi.appendEntry(MODE_ENTRY, { mode });
      ctx.ui.setStatus(STATUS_KEY, mode);
    },
  });

  pi.on("tool_call", async (call, ctx) => {
    const { toolName } = call;
    if (toolName !== "bash" && toolName !== "edit" && toolName !== "write") return undefined;
    if (mode === "full") return undefined;
    if (
      mode === "auto-edits" &&
      toolName !== "bash" &&
      insideWorkspace(pathOf(call.input), ctx.cwd)
    )
      return undefined;
    const key = grantKey(call);
    if (grants.has(key)) return undefined;
    const answer = await ctx.ui.select(question(call, ctx.cwd), [ALLOW_ONCE, ALLOW_SESSION, DENY], {
      timeout: timeoutMs(),
      ...(ctx.signal === undefined ? {} : { signal: ctx.signal }),
    });
    if (answer === ALLOW_ONCE) return undefined;
    if (answer === ALLOW_SESSION) {
      grants.add(key);
      pi.appendEntry(GRANT_ENTRY, { key });
      return undefined;
    }
    const why =
      answer === DENY
        ? "The user denied"
        : "No one approved (the question was cancelled or timed out)";
    return {
      block: true,
      reason: `${why} this ${toolName} call (permission mode: ${mode}). Do not retry it; ask the user what to do instead.`,
    };
  });
}
