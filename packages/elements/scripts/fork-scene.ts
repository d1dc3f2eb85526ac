/**
 * The "fork-versions" scene for screenshots.ts: a forked conversation whose long title is cut,
 * its "fork" badge whole beside it, in the list of conversations; and "Try again" under the last
 * answer, asking first and saying that the answer is kept as another version.
 */
import type { SessionFork } from "@pi-kit/client";
import type { AgentMessage } from "@pi-kit/protocol";
import type { PiMessage, PiSessionList } from "../src/index.ts";
import { answerOf } from "../test/support/helpers.ts";
import { MemoryHistory, summary } from "../test/support/memory-history.ts";

const TITLE = "Add a --format option to the CLI and document every format in the README";

/** Draws the scene into `stage` and returns when it is on screen. */
export async function drawForkScene(
  stage: HTMLElement,
  settle: () => Promise<void>,
): Promise<void> {
  stage.style.cssText += ";display: flex; flex-wrap: wrap; gap: 1rem; padding: 1rem";
  const list = document.createElement("pi-session-list") as PiSessionList;
  list.style.cssText = "flex: 0 1 300px; min-width: 0; height: 330px";
  const at = new Date(Date.now() - 30 * 60_000).toISOString();
  const versions: SessionFork[] = [
    {
      file: "a.jsonl",
      title: TITLE,
      createdAt: at,
      lastActivity: at,
      messageCount: 8,
      current: false,
    },
    {
      file: "b.jsonl",
      title: `${TITLE} (fork)`,
      createdAt: at,
      lastActivity: at,
      messageCount: 4,
      current: true,
      forkedFrom: "a.jsonl",
    },
  ];
  list.history = new MemoryHistory([
    summary("format-flag", `${TITLE} (fork)`, 25, { state: "idle", forks: versions }),
    summary("release", "Draft the release notes for 1.4", 180),
    summary("flaky", "Why is the upload test flaky?", 26 * 60),
  ]);
  list.selected = "format-flag";
  const column = document.createElement("div");
  column.style.cssText = "flex: 1 1 320px; min-width: 0; display: flex; flex-direction: column";
  const ask: AgentMessage = {
    role: "user",
    content: "Which formats should --format take?",
    timestamp: 0,
  };
  const answer = answerOf([
    { type: "text", text: "`--format` takes **json**, **yaml** and **table** (the default)." },
  ]);
  for (const [message, last] of [
    [ask, false],
    [answer, true],
  ] as const) {
    const el = document.createElement("pi-message") as PiMessage;
    Object.assign(el, { message, last, act: () => {} });
    column.append(el);
  }
  stage.append(list, column);
  await settle();
  const retry = [...(column.lastElementChild?.shadowRoot?.querySelectorAll("button") ?? [])].find(
    (b) => b.textContent?.trim() === "Try again",
  );
  retry?.click();
  await settle();
}
