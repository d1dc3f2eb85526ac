/**
 * The examples a reader can edit: each is a short script, shown as is in the editor and run as is
 * on the page, with what it needs passed in as `piKit` (the page cannot resolve bare imports in
 * code typed into it). `stage` is the element to draw into.
 */
import "@pi-kit/elements/define";
import { createReplayTransport, PiClient } from "@pi-kit/client";
import type { LiveExample } from "./chat-examples.ts";
import type { EditableName } from "./editable-names.ts";
import { DIALOG_WAITING, TEXT, THINKING, TOOL_DIFF } from "./recordings.ts";
import { createScriptedTransport } from "./scripted-transport.ts";
import { followSiteTheme } from "./site-theme.ts";

/** What an editable script can use. */
export const piKit = {
  PiClient,
  createScriptedTransport,
  createReplayTransport,
  followSiteTheme,
  recordings: { THINKING, TEXT, TOOL_DIFF, DIALOG_WAITING },
};

const chat = (
  recording: string,
  extra = "",
) => `const { PiClient, createReplayTransport, followSiteTheme, recordings } = piKit;

const chat = document.createElement("pi-chat");
chat.style.height = "420px";
followSiteTheme(chat);${extra}
stage.append(chat);

// A conversation recorded from real pi, played as fast as possible and left open.
const transport = createReplayTransport(recordings.${recording}, {
  speed: Number.POSITIVE_INFINITY,
  waitForWrites: false,
  keepOpen: true,
});
chat.client = new PiClient(transport, { capabilities: "1" });
`;

/** The editable examples' scripts, by example name. */
export const SOURCES: Record<EditableName, string> = {
  "chat-thinking": chat(
    "THINKING",
    '\nchat.strings = { send: "Ask", placeholder: "Ask pi anything…" };',
  ),
  "tool-diff": chat("TOOL_DIFF"),
  "dialog-waiting": `const { PiClient, createScriptedTransport, followSiteTheme, recordings } = piKit;

const chat = document.createElement("pi-chat");
chat.style.height = "420px";
followSiteTheme(chat);
stage.append(chat);

// A scripted pi: the chat answers through it, and we send what pi sent when it asked.
const pi = createScriptedTransport();
chat.client = new PiClient(pi, { capabilities: "1" });
// The chat's dialog takes questions once it has rendered with its client.
await chat.updateComplete;
for (const { dir, record } of recordings.DIALOG_WAITING) {
  const message = JSON.parse(record);
  if (dir === "in" && message.type !== "response") pi.push(message);
}
`,
  "chat-themed": chat(
    "TOOL_DIFF",
    [
      "",
      "// A set token wins in light and dark alike: keep its pairs readable in both.",
      'chat.style.setProperty("--pi-color-accent", "#0b7a75");',
      'chat.style.setProperty("--pi-color-accent-fg", "#ffffff");',
      'chat.style.setProperty("--pi-radius", "0.25rem");',
    ].join("\n"),
  ),
  markdown: `const { followSiteTheme } = piKit;

const markdown = document.createElement("pi-markdown");
followSiteTheme(markdown);
markdown.text = \`## Try me

- **bold**, _italic_, \\\`code\\\`
- [a link](https://github.com/pi-kit/pi-kit)

<b>raw HTML is shown as text</b>\`;
stage.append(markdown);
`,
};

const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
  ...args: string[]
) => (stage: HTMLElement, kit: typeof piKit) => Promise<void>;

/** Runs a script (as written or as edited) into an emptied `stage`. */
export async function runSource(stage: HTMLElement, source: string): Promise<void> {
  stage.replaceChildren();
  await new AsyncFunction("stage", "piKit", source)(stage, piKit);
}

/** The editable example `name`, running its script unchanged. */
export function editable(name: EditableName): LiveExample {
  return { mount: (stage) => runSource(stage, SOURCES[name]) };
}
