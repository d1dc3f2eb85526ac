/**
 * Page side of screenshots.ts: renders one element with realistic content in a stage the script
 * photographs. Chat content is replayed from pi's recorded transcripts through a real PiClient.
 */
import { createReplayTransport, PiClient, type SessionFork, SessionModel } from "@pi-kit/client";
import type {
  DialogRequest,
  Model,
  SessionEntry,
  SessionState,
  SessionTreeNode,
  SlashCommand,
  ToolCall,
  ToolResultMessage,
} from "@pi-kit/protocol";
import { parseTranscript } from "@pi-kit/protocol";
import "@pi-kit/elements/define";
import { TOKENS } from "@pi-kit/elements";
import { ZERO_USAGE } from "../test/support/helpers.ts";
import { MemoryHistory, summary } from "../test/support/memory-history.ts";
import { drawScene, RENDER_SCENES } from "./render-scenes.ts";
import { drawUiScene, UI_SCENES } from "./ui-scenes.ts";

type Theme = "light" | "dark";
type Transcripts = Record<string, string>;

const wait = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

const commands: SlashCommand[] = [
  { name: "compact", description: "Summarise the conversation to free context", source: "builtin" },
  { name: "review", description: "Review the staged changes", source: "prompt" },
  {
    name: "skill:release-notes",
    description: "Draft release notes from the git log",
    source: "skill",
  },
  { name: "ui", description: "Open a test dialog", source: "extension" },
];

function model(provider: string, id: string, name: string, reasoning: boolean): Model {
  return {
    id,
    name,
    api: "openai-completions",
    provider,
    baseUrl: "https://example.invalid/v1",
    reasoning,
    input: ["text", "image"],
    cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
    contextWindow: 200_000,
    maxTokens: 32_000,
  };
}
const models = [
  model("anthropic", "claude-sonnet-4-5", "Claude Sonnet 4.5", true),
  model("anthropic", "claude-haiku-4-5", "Claude Haiku 4.5", false),
  model("openai", "gpt-5", "GPT-5", true),
  model("openai", "gpt-5-mini", "GPT-5 mini", true),
];

/** Plays transcripts into a client kept open; `drive` false leaves pi's requests unanswered. */
async function replay(texts: string[], chat?: HTMLElementTagNameMap["pi-chat"]): Promise<PiClient> {
  const entries = texts.flatMap((t) => parseTranscript(t));
  const client = new PiClient(
    createReplayTransport(entries, { speed: Number.POSITIVE_INFINITY, keepOpen: true }),
    { capabilities: "1" },
  );
  if (chat) chat.client = client;
  for (const entry of entries) {
    if (entry.dir !== "out") continue;
    const command = JSON.parse(entry.record) as {
      type: string;
      message?: string;
      command?: string;
    };
    // The recorded dialog answer is left out: the dialog stays pending on screen.
    if (command.type === "prompt")
      void (chat ? chat.send(command.message ?? "") : client.prompt(command.message ?? ""));
    else if (command.type === "bash") void client.bash(command.command ?? "").catch(() => {});
    else if (command.type === "get_state") void client.getState().catch(() => {});
    await wait(30);
  }
  await wait(300);
  return client;
}

function sessionWith(state: SessionState): SessionModel {
  const session = new SessionModel({
    getState: () => Promise.resolve(state),
    getMessages: () => Promise.resolve({ messages: [] }),
  });
  session.noteState(state);
  return session;
}

function stateOf(transcript: string): SessionState {
  for (const entry of parseTranscript(transcript)) {
    const record = JSON.parse(entry.record) as { command?: string; data?: SessionState };
    if (record.command === "get_state" && record.data) return record.data;
  }
  throw new Error("no get_state in transcript");
}

const user = (id: string, parentId: string | null, text: string): SessionEntry => ({
  type: "message",
  id,
  parentId,
  timestamp: "2026-03-02T10:00:00Z",
  message: { role: "user", content: text, timestamp: 0 },
});
const reply = (id: string, parentId: string, text: string): SessionEntry => ({
  type: "message",
  id,
  parentId,
  timestamp: "2026-03-02T10:00:05Z",
  message: {
    role: "assistant",
    content: [{ type: "text", text }],
    api: "x",
    provider: "anthropic",
    model: "claude-sonnet-4-5",
    usage: ZERO_USAGE,
    stopReason: "stop",
    timestamp: 0,
  },
});
const node = (entry: SessionEntry, ...children: SessionTreeNode[]): SessionTreeNode => ({
  entry,
  children,
});
const tree: SessionTreeNode[] = [
  node(
    user("u1", null, "Add a --json flag to the CLI"),
    node(
      reply("a1", "u1", "Added the flag and a test."),
      node(
        user("u2", "a1", "Also print errors as JSON"),
        node(reply("a2", "u2", "Errors now go through the same printer.")),
      ),
      {
        ...node(
          user("u3", "a1", "Rather use a --format option"),
          node(reply("a3", "u3", "Switched to --format=json|text.")),
        ),
        label: "format option",
      },
    ),
  ),
];

const markdown = `## Plan

1. Parse \`--format\` in **cli.ts**
2. Route errors through \`print()\`

\`\`\`ts
export function print(value: unknown, format: "json" | "text"): string {
  return format === "json" ? JSON.stringify(value) : String(value);
}
\`\`\`

| flag | default |
| --- | --- |
| \`--format\` | \`text\` |

> Tests live in [test/cli.test.ts](https://example.com/test/cli.test.ts).`;

function dialogs(): { request: DialogRequest; deadline?: number }[] {
  return [
    {
      request: {
        type: "extension_ui_request",
        id: "d1",
        method: "select",
        title: "Which branch should I rebase onto?",
        options: ["main", "release/1.4", "feature/format-flag"],
        timeout: 60_000,
      },
      deadline: Date.now() + 42_000,
    },
    {
      request: {
        type: "extension_ui_request",
        id: "d2",
        method: "confirm",
        title: "Push now?",
        message: "git push --force-with-lease",
      },
    },
  ];
}

function deepAll(root: ParentNode, selector: string): Element[] {
  const out = [...root.querySelectorAll(selector)];
  for (const el of root.querySelectorAll("*"))
    if (el.shadowRoot) out.push(...deepAll(el.shadowRoot, selector));
  return out;
}

async function settleAll(root: ParentNode): Promise<void> {
  for (let i = 0; i < 4; i++) {
    const all = [...root.querySelectorAll("*")];
    for (const el of [...all]) if (el.shadowRoot) all.push(...el.shadowRoot.querySelectorAll("*"));
    await Promise.all(
      all.map((el) => (el as { updateComplete?: Promise<unknown> }).updateComplete),
    );
    await new Promise((r) => requestAnimationFrame(() => r(undefined)));
  }
}

/** Renders `tag` in the `#stage` the script photographs. */
async function show(tag: string, theme: Theme, fixtures: Transcripts): Promise<void> {
  const index = theme === "dark" ? 1 : 0;
  document.body.replaceChildren();
  document.body.style.background = TOKENS["color-bg"][index];
  document.documentElement.style.colorScheme = theme;
  const stage = document.createElement("div");
  stage.id = "stage";
  stage.style.cssText = `padding: 20px; width: 560px; background: ${TOKENS["color-bg"][index]}; font-family: system-ui, sans-serif;`;
  document.body.append(stage);
  if (RENDER_SCENES.includes(tag)) {
    // The renderers' scenes, in a chat-width column, at the page's width.
    stage.style.width = "100%";
    stage.style.boxSizing = "border-box";
    const column = document.createElement("div");
    column.setAttribute("theme", theme);
    column.style.cssText = "max-width: 52rem; margin: 0 auto";
    stage.append(column);
    drawScene(tag, column);
    for (const el of column.querySelectorAll("*")) el.setAttribute("theme", theme);
    await settleAll(stage);
    await wait(400); // the views, highlighter and image placeholders load lazily
    await settleAll(stage);
    return;
  }
  if (UI_SCENES.includes(tag)) {
    stage.style.width = "100%";
    stage.style.boxSizing = "border-box";
    stage.setAttribute("theme", theme);
    await drawUiScene(tag, stage, () => settleAll(stage));
    for (const el of stage.querySelectorAll("*")) el.setAttribute("theme", theme);
    await settleAll(stage);
    return;
  }
  const el = document.createElement(tag);
  el.setAttribute("theme", theme);
  const state = stateOf(fixtures.thinking ?? "");
  const session = sessionWith({ ...state, model: models[0], thinkingLevel: "medium" });
  switch (tag) {
    case "pi-chat": {
      stage.style.width = "960px";
      stage.style.padding = "0";
      el.style.height = "760px";
      stage.append(el);
      const chat = el as HTMLElementTagNameMap["pi-chat"];
      const texts = ["thinking", "bash-tool", "bash-command", "extension-dialog"].map(
        (name) => fixtures[name] ?? "",
      );
      await replay(texts, chat);
      chat.composer?.setText("Can you also add a test?");
      break;
    }
    case "pi-message-list":
    case "pi-message":
    case "pi-tool-call": {
      stage.style.width = "760px";
      const client = await replay([fixtures["bash-tool"] ?? ""]);
      const messages = client.session.getSnapshot().messages;
      const assistant = messages.find(
        (m) => m.role === "assistant" && m.content.some((b) => b.type === "toolCall"),
      );
      const result = messages.find((m): m is ToolResultMessage => m.role === "toolResult");
      const call =
        assistant?.role === "assistant"
          ? (assistant.content.find((b) => b.type === "toolCall") as ToolCall | undefined)
          : undefined;
      if (tag === "pi-message-list") Object.assign(el, { messages });
      else if (tag === "pi-message" && assistant?.role === "assistant")
        Object.assign(el, {
          message: {
            ...assistant,
            content: [{ type: "text", text: "Let me run it to check." }, ...assistant.content],
          },
          tools: [{ execution: undefined, result }],
        });
      else Object.assign(el, { call, result });
      stage.append(el);
      await client.close();
      // Expanded, to show the output (finished calls start collapsed).
      if (tag !== "pi-message-list") {
        await settleAll(stage);
        for (const details of deepAll(stage, "details")) details.setAttribute("open", "");
      }
      break;
    }
    case "pi-markdown":
      Object.assign(el, { text: markdown });
      stage.append(el);
      await wait(300); // the highlighter loads lazily
      break;
    case "pi-composer": {
      stage.style.paddingTop = "210px";
      stage.append(el);
      await settleAll(stage);
      const composer = el as HTMLElementTagNameMap["pi-composer"];
      const menu = composer.slashMenu;
      if (menu) menu.commands = commands;
      const input = composer.input as HTMLTextAreaElement;
      input.focus();
      input.value = "/";
      input.setSelectionRange(1, 1);
      input.dispatchEvent(new Event("input", { bubbles: true }));
      break;
    }
    case "pi-slash-menu":
      Object.assign(el, { commands, query: "" });
      stage.append(el);
      break;
    case "pi-dialog":
      Object.assign(el, { dialogs: dialogs() });
      stage.append(el);
      break;
    case "pi-toasts": {
      el.style.setProperty("--position", "static");
      Object.assign(el, { duration: 0 });
      stage.append(el);
      const toasts = el as HTMLElementTagNameMap["pi-toasts"];
      toasts.show("Formatted 14 files with Biome.");
      toasts.show("The model is near its rate limit; retrying in 20 s.", "warning");
      toasts.show("Extension 'deploy' failed: missing DEPLOY_TOKEN.", "error");
      break;
    }
    case "pi-model-picker":
      Object.assign(el, { models, session });
      stage.append(el);
      break;
    case "pi-thinking-picker":
      Object.assign(el, { levels: ["off", "minimal", "low", "medium", "high"], session });
      stage.append(el);
      break;
    case "pi-session-stats":
      Object.assign(el, {
        stats: {
          sessionId: "3f2a9c",
          userMessages: 6,
          assistantMessages: 9,
          toolCalls: 14,
          toolResults: 14,
          totalMessages: 29,
          tokens: {
            input: 48_200,
            output: 6_950,
            cacheRead: 31_000,
            cacheWrite: 4_100,
            total: 90_250,
          },
          cost: 0.2143,
          contextUsage: { tokens: 58_400, contextWindow: 200_000, percent: 29.2 },
        },
      });
      stage.append(el);
      break;
    case "pi-fork-picker":
      Object.assign(el, {
        messages: [
          { entryId: "u1", text: "Add a --json flag to the CLI" },
          { entryId: "u2", text: "Also print errors as JSON" },
          {
            entryId: "u3",
            text: "Rather use a --format option, and keep --json as an alias for one release",
          },
          { entryId: "u4", text: "Write the changelog entry" },
        ],
      });
      stage.append(el);
      break;
    case "pi-session-tree":
      Object.assign(el, { tree, leafId: "a3", forks: versions("Add a --json flag to the CLI") });
      stage.append(el);
      break;
    case "pi-session-list": {
      stage.style.width = "300px";
      el.style.height = "560px";
      const hours = 60;
      const history = new MemoryHistory([
        summary("fix-login", "Fix the login bug", 2, { state: "running", messageCount: 14 }),
        summary("format-flag", "Add a --format option to the CLI (fork)", 25, {
          state: "idle",
          forks: versions("Add a --format option to the CLI"),
        }),
        summary("release", "Draft the release notes for 1.4", 3 * hours),
        summary("flaky", "Why is the upload test flaky?", 26 * hours),
        summary("parser", "Refactor the config parser", 3 * 24 * hours, {
          damaged: "the last line was cut off (pi stopped while writing)",
        }),
        summary("docs", "Document the bridge's HTTP API", 9 * 24 * hours),
        summary("perf", "Profile the markdown renderer", 40 * 24 * hours),
        summary("ci", "Speed up CI on two cores", 400 * 24 * hours),
      ]);
      Object.assign(el, { history, selected: "format-flag" });
      stage.append(el);
      await wait(100);
      break;
    }
    default:
      throw new Error(`no scene for ${tag}`);
  }
  await settleAll(stage);
}

/** A forked conversation's two files: the one it came from, and the fork pi continues. */
function versions(title: string): SessionFork[] {
  const at = new Date(Date.now() - 30 * 60_000).toISOString();
  return [
    { file: "a.jsonl", title, createdAt: at, lastActivity: at, messageCount: 8, current: false },
    {
      file: "b.jsonl",
      title: `${title} (fork)`,
      createdAt: at,
      lastActivity: at,
      messageCount: 4,
      current: true,
      forkedFrom: "a.jsonl",
    },
  ];
}

Object.assign(window, { show, benchReady: true });
