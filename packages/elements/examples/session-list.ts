import "@pi-kit/elements/define";
import type { SessionHistory, SessionSummary } from "@pi-kit/client";

// Any SessionHistory works: BridgeSessionHistory (from @pi-kit/client) reads a bridge's
// /api/sessions; this one keeps two conversations in memory.
const now = new Date().toISOString();
let sessions: SessionSummary[] = ["Fix the login bug", "Draft the release notes"].map(
  (title, i) => ({
    name: `chat-${i}`,
    title,
    createdAt: now,
    lastActivity: now,
    messageCount: 2,
    state: "stopped",
    sizeBytes: 1024,
  }),
);
const history: SessionHistory = {
  list: async () => ({ sessions, nextCursor: null }),
  create: async (name = `chat-${sessions.length}`) => {
    const session = { ...(sessions[0] as SessionSummary), name, title: "", messageCount: 0 };
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
list.history = history;
list.selected = "chat-0";
list.addEventListener("pi-session-select", (event) => {
  console.log(`open ${event.session.name}`); // connect a <pi-chat> to this session here
});
document.body.append(list);
