import type { SessionSnapshot } from "@pi-kit/client";
import type { UserMessage } from "@pi-kit/protocol";
import { html, nothing, type TemplateResult } from "lit";
import { format } from "../../internal/i18n/format.ts";
import type { PiStrings } from "../../internal/i18n/i18n.ts";
import type { OutgoingMessage } from "./delivery.ts";

/**
 * What pi is doing when nothing else in the transcript shows it: from a message being handed to
 * pi until the answer starts (the answer then says "Thinking…" itself, then streams), and while a
 * tool runs between two answers. `undefined` when idle, or while a dialog waits on the user.
 */
export function progressLabel(
  snapshot: SessionSnapshot | undefined,
  sending: boolean,
  s: PiStrings,
): string | undefined {
  if (snapshot?.streamingMessage !== undefined || (snapshot?.dialogs.length ?? 0) > 0) {
    return undefined;
  }
  for (const execution of snapshot?.toolExecutions.values() ?? []) {
    if (execution.status === "running") return format(s.progressTool, { tool: execution.toolName });
  }
  return sending || snapshot?.isRunning ? s.progressWorking : undefined;
}

/**
 * The progress line at the end of the transcript. The live region is always there (a region
 * added together with its text is not announced reliably); its content comes and goes.
 */
export function progressView(label: string | undefined): TemplateResult {
  return html`<div part="progress" class="progress" role="status" aria-live="polite">${
    label === undefined
      ? nothing
      : html`<span class="spinner" role="progressbar" aria-label=${label}></span><span>${label}</span>`
  }</div>`;
}

const bubbles = new WeakMap<OutgoingMessage, UserMessage>();

// One message object per outgoing message, so an unchanged bubble is not rendered again.
function asUserMessage(message: OutgoingMessage): UserMessage {
  let user = bubbles.get(message);
  if (user === undefined) {
    user = {
      role: "user",
      content: [{ type: "text", text: message.text }, ...message.images],
      timestamp: 0,
    };
    bubbles.set(message, user);
  }
  return user;
}

/**
 * The messages not sent yet: the user's bubbles, each marked "Sending when connected…", or
 * "Sending…" once `connected` (behind a message pi is still answering).
 */
export function pendingView(
  waiting: readonly OutgoingMessage[],
  connected: boolean,
  s: PiStrings,
): unknown {
  if (waiting.length === 0) return nothing;
  const note = connected ? s.sending : s.sendingWhenConnected;
  return waiting.map(
    (message) => html`<div part="pending-message" class="pending-message">
      <pi-message streaming exportparts="bubble" .strings=${s} .message=${asUserMessage(message)}></pi-message>
      <span class="pending-note">${note}</span>
    </div>`,
  );
}
