/**
 * Page side of first-paint.bench.ts: the chat page's elements (chat-page-elements.ts)
 * and a `<pi-chat>` that paints a recorded 20-message conversation (markdown, code, an edit with
 * its diff) as soon as the page runs. `firstPaintMs` is the time from navigation to the frame
 * that shows all of it.
 */
import { SessionModel } from "@pi-kit/client";
import type { AgentMessage, RpcEvent } from "@pi-kit/protocol";
import { assistant } from "./assistant-message.ts";
import "./chat-page-elements.ts";

const PATCH = "@@ -1,3 +1,3 @@\n a\n-b = 2\n+b = 3\n c\n";

/** The recorded conversation: 9 questions and answers, then an edit and the last answer. */
function conversation(): AgentMessage[] {
  const messages: AgentMessage[] = [];
  for (let i = 0; i < 9; i++)
    messages.push(
      { role: "user", content: `Question ${i}: how does this part work?`, timestamp: 0 },
      assistant([
        {
          type: "text",
          text: `Answer ${i} with *markdown*:\n\n- a list\n- of points\n\n\`\`\`ts\nconst v = ${i};\n\`\`\``,
        },
      ]),
    );
  messages.push(
    assistant([
      {
        type: "toolCall",
        id: "edit-1",
        name: "edit",
        arguments: { path: "src/a.ts", edits: [{ oldText: "b = 2", newText: "b = 3" }] },
      },
    ]),
    {
      role: "toolResult",
      toolCallId: "edit-1",
      toolName: "edit",
      content: [{ type: "text", text: "Successfully replaced 1 block(s)." }],
      details: { patch: PATCH },
      isError: false,
      timestamp: 0,
    } as AgentMessage,
    assistant([{ type: "text", text: "Done: **the last answer** of the conversation." }]),
  );
  return messages;
}

/** The first element matching `selector` anywhere under `root`, through shadow roots. */
function deepQuery(root: ParentNode, selector: string): Element | null {
  const found = root.querySelector(selector);
  if (found !== null) return found;
  for (const element of root.querySelectorAll("*"))
    if (element.shadowRoot) {
      const inner = deepQuery(element.shadowRoot, selector);
      if (inner !== null) return inner;
    }
  return null;
}

const session = new SessionModel({
  getState: () => Promise.reject(new Error("recorded")),
  getMessages: () => Promise.reject(new Error("recorded")),
});
for (const message of conversation()) {
  session.handleEvent({ type: "message_start", message } as RpcEvent);
  session.handleEvent({ type: "message_end", message } as RpcEvent);
}
const chat = document.createElement("pi-chat");
chat.style.height = "800px";
chat.session = session;
document.body.append(chat);

// Painted: the last answer's markdown is formatted and the edit's diff is drawn.
const painted = (): boolean =>
  deepQuery(document.body, "strong")?.textContent === "the last answer" &&
  deepQuery(document.body, ".diff .row.add") !== null;
const check = (): void => {
  if (!painted()) {
    requestAnimationFrame(check);
    return;
  }
  requestAnimationFrame(() => {
    const page = window as { firstPaintMs?: number; benchReady?: boolean };
    page.firstPaintMs = performance.now();
    page.benchReady = true;
  });
};
requestAnimationFrame(check);
