/** Page side of screenshots.ts: a <pi-chat> driven by recorded transcripts through a real PiClient. */
import { createReplayTransport, PiClient } from "@pi-kit/client";
import { parseTranscript } from "@pi-kit/protocol";
import "@pi-kit/elements/define";

async function show(transcripts: string[], theme: string): Promise<void> {
  document.body.replaceChildren();
  document.body.style.background = theme === "dark" ? "#16181d" : "#fff";
  const chat = document.createElement("pi-chat");
  chat.setAttribute("theme", theme);
  chat.style.height = "760px";
  document.body.append(chat);
  const entries = transcripts.flatMap((t) => parseTranscript(t));
  const client = new PiClient(
    createReplayTransport(entries, { speed: Number.POSITIVE_INFINITY, keepOpen: true }),
    { capabilities: "1" },
  );
  chat.client = client;
  for (const entry of entries) {
    if (entry.dir !== "out") continue;
    const command = JSON.parse(entry.record) as {
      type: string;
      message?: string;
      command?: string;
    };
    if (command.type === "prompt") void chat.send(command.message ?? "");
    else if (command.type === "bash") void client.bash(command.command ?? "").catch(() => {});
    else if (command.type === "get_state") void client.getState().catch(() => {});
    await new Promise((r) => setTimeout(r, 30));
  }
  await new Promise((r) => setTimeout(r, 300));
  chat.composer?.setText("Can you also add a test?");
}

Object.assign(window, { show, benchReady: true });
