/** Live examples of the smaller elements, each on a scripted pi or on data set directly. */
import "@pi-kit/elements/define";
import { PiClient, type SessionHistory, type SessionSummary } from "@pi-kit/client";
import type { SessionTreeNode } from "@pi-kit/protocol";
import type { LiveExample } from "./chat-examples.ts";
import { createScriptedTransport, STATE } from "./scripted-transport.ts";
import { followSiteTheme } from "./site-theme.ts";

const other = {
  ...STATE.model,
  id: "gpt-5",
  name: "GPT-5",
  provider: "openai",
  api: "openai-responses",
};
const answers = {
  get_available_models: { models: [STATE.model, other] },
  set_model: (c: Record<string, unknown>) => (c.modelId === other.id ? other : STATE.model),
  get_available_thinking_levels: { levels: ["off", "minimal", "low", "medium", "high"] },
  get_session_stats: {
    sessionId: "docs",
    userMessages: 2,
    assistantMessages: 3,
    toolCalls: 4,
    toolResults: 4,
    totalMessages: 9,
    tokens: { input: 12_300, output: 950, cacheRead: 2000, cacheWrite: 0, total: 15_250 },
    cost: 0.0123,
    contextUsage: { tokens: 41_000, contextWindow: 200_000, percent: 20.5 },
  },
  get_commands: {
    commands: [
      { name: "compact", description: "Compact the context", source: "builtin" },
      { name: "review", description: "Review the working tree", source: "prompt" },
      { name: "deploy", description: "Deploy the preview", source: "extension" },
    ],
  },
  get_fork_messages: {
    messages: [
      { entryId: "0048bc1e", text: "The login cookie is not sent. Fix it." },
      { entryId: "44f54b37", text: "Now add a test for the refused login." },
    ],
  },
  fork: { text: "", cancelled: true },
  get_messages: { messages: [] },
  get_entries: { entries: [], leafId: null },
};

/** A client on a scripted pi, its state read. */
async function scriptedClient(): Promise<PiClient> {
  const client = new PiClient(createScriptedTransport(answers), { capabilities: "1" });
  await client.getState();
  return client;
}

/** `tag` on a scripted client, themed like the site. */
function onClient(
  tag: keyof HTMLElementTagNameMap,
  setup?: (el: HTMLElement) => void,
): LiveExample {
  return {
    async mount(stage) {
      const element = document.createElement(tag) as HTMLElement & { client?: PiClient };
      followSiteTheme(element);
      setup?.(element);
      element.client = await scriptedClient();
      stage.append(element);
    },
  };
}

export const modelPicker = onClient("pi-model-picker");
export const thinkingPicker = onClient("pi-thinking-picker");
export const sessionStats = onClient("pi-session-stats");
export const forkPicker = onClient("pi-fork-picker");

/** The composer with its slash menu: type `/` to see pi's commands. */
export const composer: LiveExample = {
  async mount(stage) {
    const chat = document.createElement("pi-chat");
    chat.style.height = "260px";
    followSiteTheme(chat);
    chat.client = await scriptedClient();
    stage.append(chat);
  },
};

/** Notifications pi sent, as toasts (they stay: the example sets no timeout). */
export const toasts: LiveExample = {
  async mount(stage) {
    const transport = createScriptedTransport(answers);
    const client = new PiClient(transport, { capabilities: "1" });
    const el = document.createElement("pi-toasts");
    followSiteTheme(el);
    el.style.position = "relative";
    el.client = client;
    stage.append(el);
    await el.updateComplete;
    transport.push(
      {
        type: "extension_ui_request",
        id: "n1",
        method: "notify",
        message: "Tests passed (128)",
        notifyType: "info",
      },
      {
        type: "extension_ui_request",
        id: "n2",
        method: "notify",
        message: "Lint found 2 warnings",
        notifyType: "warning",
      },
    );
  },
};

/** A provider handing one client to a model picker and session stats below it. */
export const provider: LiveExample = {
  async mount(stage) {
    const el = document.createElement("pi-provider");
    el.client = await scriptedClient();
    for (const tag of ["pi-model-picker", "pi-session-stats"] as const) {
      const child = document.createElement(tag);
      followSiteTheme(child);
      el.append(child);
    }
    stage.append(el);
  },
};

const when = "2026-11-30T09:00:00.000Z";
const summaries: SessionSummary[] = [
  ["fix-login", "Fix the login cookie", "running", 14],
  ["release-notes", "Draft the release notes", "stopped", 6],
  ["flaky-test", "Why does the upload test flake?", "stopped", 22],
].map(([name, title, state, messageCount]) => ({
  name: String(name),
  title: String(title),
  createdAt: when,
  lastActivity: when,
  messageCount: Number(messageCount),
  state: state as SessionSummary["state"],
  sizeBytes: 4096,
}));

/** The history of conversations on an in-memory `SessionHistory`. */
export const sessionList: LiveExample = {
  async mount(stage) {
    let sessions = [...summaries];
    const history: SessionHistory = {
      list: async () => ({ sessions, nextCursor: null }),
      create: async (name = `chat-${sessions.length}`) => {
        const session = { ...(summaries[1] as SessionSummary), name, title: "", messageCount: 0 };
        sessions = [session, ...sessions];
        return session;
      },
      rename: async (name, title) => {
        sessions = sessions.map((s) => (s.name === name ? { ...s, title } : s));
        return sessions.find((s) => s.name === name) as SessionSummary;
      },
      delete: async (name) => {
        sessions = sessions.filter((s) => s.name !== name);
      },
    };
    const list = document.createElement("pi-session-list");
    followSiteTheme(list);
    list.style.height = "320px";
    list.history = history;
    list.selected = "fix-login";
    stage.append(list);
  },
};

const entry = (id: string, parentId: string | null, role: "user" | "assistant", text: string) => ({
  type: "message" as const,
  id,
  parentId,
  timestamp: when,
  message:
    role === "user"
      ? { role, content: text, timestamp: 0 }
      : { ...assistantShape, content: [{ type: "text" as const, text }] },
});
const assistantShape = {
  role: "assistant" as const,
  api: "anthropic-messages",
  provider: "anthropic",
  model: "claude-sonnet-4-5",
  usage: {
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 0,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  },
  stopReason: "stop" as const,
  timestamp: 0,
};
const node = (e: ReturnType<typeof entry>, ...children: SessionTreeNode[]): SessionTreeNode =>
  ({ entry: e, children }) as unknown as SessionTreeNode;

/** A recorded history with a branch: two answers to the same question. */
export const sessionTree: LiveExample = {
  async mount(stage) {
    const tree = document.createElement("pi-session-tree");
    followSiteTheme(tree);
    tree.tree = [
      node(
        entry("u1", null, "user", "The login cookie is not sent. Fix it."),
        node(
          entry("a1", "u1", "assistant", "Added credentials: same-origin to the fetch."),
          node(entry("u2", "a1", "user", "Now add a test for the refused login.")),
        ),
        node(entry("a2", "u1", "assistant", "Moved the session to a header token instead.")),
      ),
    ];
    tree.leafId = "u2";
    stage.append(tree);
  },
};
