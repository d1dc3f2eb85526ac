/**
 * The chat's states for screenshots.ts (a failed request shown as one error, a notification, a
 * dialog, a reconnecting connection, the "Notify me" button), photographed at 1280 and 390 px,
 * light and dark.
 */
import { PiClient } from "@pi-kit/client";
import type { AgentMessage } from "@pi-kit/protocol";
import { FakePi, ok, STATE } from "../../client/test/support/fake-pi.ts";
import { answerOf } from "../test/support/helpers.ts";
import { drawForkScene } from "./fork-scene.ts";
import { drawStoppedBatchScene } from "./stopped-batch-scene.ts";

/** The scenes this module draws. */
export const UI_SCENES = ["chat-states", "fork-versions", "stopped-batch"];

const question = (text: string): AgentMessage => ({ role: "user", content: text, timestamp: 0 });
const failure = (): AgentMessage =>
  answerOf([], {
    stopReason: "error",
    errorMessage: '401: {"error":{"message":"Invalid API key"}}',
  });

/** Draws `scene` into `stage` (full width) and returns when it is on screen. */
export async function drawUiScene(
  scene: string,
  stage: HTMLElement,
  settle: () => Promise<void>,
): Promise<void> {
  if (scene === "fork-versions") return drawForkScene(stage, settle);
  if (scene === "stopped-batch") return drawStoppedBatchScene(stage, settle);
  if (scene !== "chat-states") throw new Error(`no scene ${scene}`);
  const pi = new FakePi("1");
  pi.handlers.set("get_state", (c) => [
    ok(c, {
      ...STATE,
      thinkingLevel: "medium",
      model: {
        id: "claude-sonnet-4-5",
        name: "Claude Sonnet 4.5",
        api: "anthropic-messages",
        provider: "anthropic",
        baseUrl: "",
        reasoning: true,
        input: ["text"],
        cost: { input: 3, output: 15, cacheRead: 0, cacheWrite: 0 },
        contextWindow: 200_000,
        maxTokens: 32_000,
      },
    }),
  ]);
  // The WebSocket transport's shape: it says where its connection stands.
  const transport = Object.defineProperty(Object.assign(new EventTarget(), pi.transport), "state", {
    get: () => ({ status: "reconnecting", attempt: 2 }),
  });
  const client = new PiClient(transport, { capabilities: "1" });
  await client.getState();
  const chat = document.createElement("pi-chat");
  chat.notify = true;
  chat.style.height = `${Math.min(760, window.innerHeight - 40)}px`;
  chat.client = client;
  stage.style.padding = "0";
  stage.append(chat);
  // The chat's dialog registers in its first update; pi's question must come after.
  await settle();
  const messages = [
    question("Summarise the open pull requests"),
    failure(),
    failure(),
    failure(),
    failure(),
    question("I fixed the key. Try again, please."),
    answerOf([
      {
        type: "text",
        text: "There are **three** open pull requests:\n\n1. `#412` adds `--format`\n2. `#415` fixes the login cookie\n3. `#418` bumps the dependencies",
      },
    ]),
  ];
  for (const message of messages) {
    pi.push({ type: "message_start", message });
    pi.push({ type: "message_end", message });
  }
  pi.push({
    type: "extension_ui_request",
    id: "deploy",
    method: "confirm",
    title: "Merge #415 now?",
    message: "It has two approvals and green checks.",
  });
  await settle();
  chat.shadowRoot?.querySelector("pi-toasts")?.show("3 checks passed on #415");
  chat.composer?.setText("Then merge #412 too");
  await settle();
}
