import "@pi-kit/elements/define";
import { createReplayTransport, PiClient } from "@pi-kit/client";
import type { UserContent } from "@pi-kit/protocol";
import { html } from "lit";

const textOf = (content: string | readonly UserContent[]): string =>
  typeof content === "string"
    ? content
    : content.map((c) => (c.type === "text" ? c.text : "")).join("");

const chat = document.createElement("pi-chat");
chat.style.height = "100vh";
chat.strings = { send: "Ask", placeholder: "Ask pi anything…" };
chat.renderers = {
  tools: {
    bash: ({ call, result }) =>
      html`<pre>$ ${call.arguments.command}\n${result ? textOf(result.content) : "…"}</pre>`,
  },
  roles: {
    "custom:deploy": (message) =>
      message.role === "custom" ? html`<p>🚀 ${textOf(message.content)}</p>` : null,
  },
};
document.body.append(chat);

// hello.jsonl was recorded with `recordTransport`: pi's side plays at half speed, and what the
// chat writes goes nowhere (the recorded requests and responses are not waited for).
const recording = await (await fetch(new URL("./hello.jsonl", import.meta.url))).text();
chat.client = new PiClient(createReplayTransport(recording, { speed: 0.5, waitForWrites: false }), {
  capabilities: "1",
});
