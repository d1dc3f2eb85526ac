/** Render helpers for each message role (the body of `<pi-message>`). */
import type { BashRun } from "@pi-kit/client";
import type {
  AgentMessage,
  AssistantMessage,
  BashExecutionMessage,
  ImageContent,
  ToolResultMessage,
  UserContent,
} from "@pi-kit/protocol";
import { html, nothing, type TemplateResult } from "lit";
import { format, formatTokens, imageUrl, textOf } from "../../internal/i18n/format.ts";
import type { PiStrings } from "../../internal/i18n/i18n.ts";
import type { PiRenderers, ToolSlot } from "../../internal/renderers.ts";
import type { errorNotice } from "./error-notice.ts";
import { failedAttempts } from "./transcript-filter.ts";

/** What every view needs. */
export interface ViewContext {
  readonly strings: PiStrings;
  readonly streaming: boolean;
  readonly tools: readonly ToolSlot[] | undefined;
  readonly renderers: PiRenderers | undefined;
  /** Hosts whose images in answers load without a click. */
  readonly imageHosts?: readonly string[] | undefined;
  /** The error box of a failed answer, once loaded (error-notice.ts); until then its text only. */
  readonly errorNotice?: typeof errorNotice | undefined;
}

function images(content: string | readonly UserContent[], s: PiStrings): unknown {
  if (typeof content === "string") return nothing;
  const list = content.filter((b): b is ImageContent => b.type === "image");
  if (list.length === 0) return nothing;
  return html`<div class="images">${list.map((image, index) => {
    const src = imageUrl(image);
    return src
      ? html`<img part="image" src=${src} alt=${format(s.imageAlt, { index: index + 1 })} />`
      : nothing;
  })}</div>`;
}

/** A user message: plain text (never markdown: what was typed is what is shown) and images. */
export function userView(
  message: { content: string | readonly UserContent[] },
  s: PiStrings,
): TemplateResult {
  return html`<div class="author sr-only">${s.you}</div>
    <div part="bubble" class="bubble user"><div class="plain">${textOf(message.content)}</div>${images(message.content, s)}</div>`;
}

/** An assistant message: text, thinking and tool calls in order, then an error or abort marker. */
export function assistantView(message: AssistantMessage, c: ViewContext): TemplateResult {
  const s = c.strings;
  let toolIndex = 0;
  const last = message.content.length - 1;
  // Before the first token: say the model is at work.
  const pending =
    c.streaming &&
    !message.content.some((b) => (b.type === "text" ? b.text !== "" : true)) &&
    message.stopReason !== "error";
  return html`<div class="author sr-only">${s.assistant}</div>
    ${pending ? html`<div part="pending" class="pending" role="status">${s.thinkingState}</div>` : nothing}
    ${message.content.map((block, index) => {
      const live = c.streaming && index === last;
      switch (block.type) {
        case "text":
          return block.text
            ? html`<pi-markdown part="text" exportparts="code-block, code-header, copy-button, remote-image" .text=${block.text} .strings=${s} .imageHosts=${c.imageHosts ?? []} ?streaming=${live}></pi-markdown>`
            : nothing;
        case "thinking":
          return thinkingView(block.thinking, block.redacted === true, live, s);
        case "toolCall": {
          const slot = c.tools?.[toolIndex++];
          return html`<pi-tool-call
            exportparts="tool-call, tool-header, tool-arguments, tool-output, image, diff, file, file-view, show-all, dialog"
            .call=${block}
            .execution=${slot?.execution}
            .result=${slot?.result}
            .strings=${s}
            .renderer=${c.renderers?.tools?.[block.name]}
            .dialog=${slot?.dialog}
            ?streaming=${live && "partialArguments" in block}
          ></pi-tool-call>`;
        }
        default:
          return nothing;
      }
    })}
    ${
      message.stopReason === "error"
        ? (c.errorNotice?.(message, s, failedAttempts(message)) ??
          html`<div part="error" class="error" role="note">${s.error}: ${message.errorMessage}</div>`)
        : message.stopReason === "aborted"
          ? html`<div part="notice" class="aborted">${s.aborted}</div>`
          : nothing
    }`;
}

function thinkingView(
  text: string,
  redacted: boolean,
  live: boolean,
  s: PiStrings,
): TemplateResult {
  return html`<details part="thinking" class="thinking">
    <summary>${redacted ? s.thinkingRedacted : s.thinking}${live ? "…" : ""}</summary>
    ${redacted ? nothing : html`<div class="plain muted">${text}</div>`}
  </details>`;
}

/** A tool result without a matching call in view (its call scrolled out, or an odd transcript). */
export function toolResultView(message: ToolResultMessage, s: PiStrings): TemplateResult {
  return html`<div part="notice" class=${message.isError ? "notice error" : "notice"}>
    <span class="mono">${message.toolName}</span> · ${message.isError ? s.toolError : s.toolResult}
    <pre class="output">${textOf(message.content)}</pre>
  </div>`;
}

/** A direct shell command, from history (`bashExecution`) or a live run of this client. */
export function bashView(
  run: Pick<BashExecutionMessage, "command" | "output" | "exitCode" | "cancelled" | "truncated">,
  s: PiStrings,
  running = false,
): TemplateResult {
  const tail = run.cancelled
    ? s.cancelled
    : running
      ? s.toolRunning
      : run.exitCode === undefined
        ? ""
        : format(s.exitCode, { code: run.exitCode });
  const failed = run.cancelled || (run.exitCode !== undefined && run.exitCode !== 0);
  return html`<div part="bash" class=${failed ? "bash error" : "bash"}>
    <div class="bash-head"><span class="muted">${s.shell}</span> <span class="mono">$ ${run.command}</span>
      <span class="muted">${tail}${run.truncated ? ` · ${s.truncated}` : ""}</span></div>
    ${run.output ? html`<pre class="output">${run.output}</pre>` : nothing}
  </div>`;
}

/** Maps a live {@link BashRun} to the history shape. */
export function bashRunView(run: BashRun, s: PiStrings): TemplateResult {
  return bashView(
    {
      command: run.command,
      output: run.output,
      exitCode: run.result?.exitCode,
      cancelled: run.result?.cancelled ?? false,
      truncated: run.result?.truncated ?? false,
    },
    s,
    run.status === "running",
  );
}

function collapsible(title: string, body: unknown): TemplateResult {
  return html`<details part="notice" class="notice"><summary>${title}</summary>${body}</details>`;
}

/** Any message, by role; custom renderers first. */
export function messageView(message: AgentMessage, c: ViewContext): unknown {
  const s = c.strings;
  const role: string = message.role;
  const custom =
    (message.role === "custom"
      ? c.renderers?.roles?.[`custom:${message.customType}`]
      : undefined) ?? c.renderers?.roles?.[role];
  if (custom !== undefined) return custom(message, { streaming: c.streaming, strings: s });
  switch (message.role) {
    case "user":
      return userView(message, s);
    case "assistant":
      return assistantView(message, c);
    case "toolResult":
      return toolResultView(message, s);
    case "bashExecution":
      return bashView(message, s);
    case "system": {
      const text = typeof message.content === "string" ? message.content : textOf(message.content);
      const sections = Object.entries(message.sections ?? {}).filter(([, v]) => v);
      return collapsible(
        format(s.systemMessage, { tools: message.toolsAdded?.length ?? 0 }),
        html`${text ? html`<pre class="output">${text}</pre>` : nothing}${sections.map(
          ([name, value]) =>
            html`<div class="muted mono">${name}</div><pre class="output">${value}</pre>`,
        )}`,
      );
    }
    case "compactionSummary":
      return collapsible(
        format(s.compaction, { tokens: formatTokens(message.tokensBefore) }),
        html`<pi-markdown .text=${message.summary} .strings=${s}></pi-markdown>`,
      );
    case "branchSummary":
      return collapsible(
        s.branchSummary,
        html`<pi-markdown .text=${message.summary} .strings=${s}></pi-markdown>`,
      );
    case "custom":
      return message.display
        ? html`<div part="notice" class="notice"><div class="muted mono">${message.customType}</div>
            <pi-markdown .text=${textOf(message.content)} .strings=${s}></pi-markdown>${images(message.content, s)}</div>`
        : nothing;
    default:
      return html`<div part="notice" class="notice muted">${format(s.unknownMessage, { role })}</div>`;
  }
}
