import type { ToolExecution } from "@pi-kit/client";
import type { ImageContent, ToolCall, ToolResultMessage } from "@pi-kit/protocol";
import { html, LitElement, nothing } from "lit";
import { formatSeconds, imageUrl, textOf } from "../../internal/format.ts";
import { en, format, type PiStrings } from "../../internal/i18n.ts";
import type { ToolRenderer, ToolStatus } from "../../internal/renderers.ts";
import { baseStyles } from "../../styles/shared.ts";
import { tokenStyles } from "../../styles/tokens.ts";
import { toolCallStyles } from "./pi-tool-call.styles.ts";

/** Arguments worth showing in the header, by common tool name. */
const SUMMARY_KEYS = ["command", "path", "file_path", "pattern", "url", "query"];

/**
 * One tool call: its arguments as they stream, then the live output, then the result or error,
 * with a status and a duration. A `<details>` element keeps it keyboard-operable and announces
 * its expanded state; it starts open while the tool runs.
 *
 * @tagname pi-tool-call
 * @summary A tool call card.
 * @csspart tool-call - The card (`details`).
 * @csspart tool-header - The summary line: name, argument summary, status, duration.
 * @csspart tool-arguments - The arguments block.
 * @csspart tool-output - The live output or result block.
 * @cssstate running - The tool is preparing or running.
 * @cssstate error - The tool failed.
 */
export class PiToolCall extends LitElement {
  static override styles = [tokenStyles, baseStyles, toolCallStyles];
  static override properties = {
    call: { attribute: false },
    execution: { attribute: false },
    result: { attribute: false },
    streaming: { type: Boolean },
    strings: { attribute: false },
    renderer: { attribute: false },
  };

  /** The tool call block of the assistant message. */
  declare call: ToolCall | undefined;
  /** The live execution, if this call belongs to the latest run. */
  declare execution: ToolExecution | undefined;
  /** The tool result message, once there is one. */
  declare result: ToolResultMessage | undefined;
  /** True while the model is still writing the call. */
  declare streaming: boolean;
  /** UI strings. */
  declare strings: PiStrings;
  /** A custom body renderer for this tool. */
  declare renderer: ToolRenderer | undefined;

  readonly #internals = this.attachInternals();
  #startedAt: number | undefined;
  #measuredMs: number | undefined;

  constructor() {
    super();
    this.streaming = false;
    this.strings = en;
  }

  /** The call's current status. */
  get status(): ToolStatus {
    if (this.streaming) return "preparing";
    const failed = this.result?.isError ?? this.execution?.status === "error";
    if (this.result !== undefined || this.execution?.status === "done" || failed)
      return failed ? "error" : "done";
    return this.execution?.status === "running" ? "running" : "pending";
  }

  protected override render(): unknown {
    const call = this.call;
    if (call === undefined) return nothing;
    const s = this.strings;
    const status = this.status;
    this.#track(status);
    const states = this.#internals.states;
    states.clear();
    if (status === "preparing" || status === "running") states.add("running");
    if (status === "error") states.add("error");
    const partial = "partialArguments" in call ? String(call.partialArguments) : undefined;
    const ms = this.execution?.durationMs ?? this.result?.durationMs ?? this.#measuredMs;
    const label = {
      preparing: s.toolPreparing,
      pending: s.toolPending,
      running: s.toolRunning,
      done: s.toolDone,
      error: s.toolError,
    }[status];
    const custom = this.renderer?.({
      call,
      partialArguments: partial,
      execution: this.execution,
      result: this.result,
      status,
      strings: s,
    });
    return html`<details part="tool-call" class=${status} ?open=${status !== "done"}>
      <summary part="tool-header">
        <span class="name">${call.name || "tool"}</span>
        <span class="summary">${summaryOf(call, partial)}</span>
        <span class="status">${label}${ms === undefined ? "" : ` · ${format(s.seconds, { seconds: formatSeconds(ms) })}`}</span>
      </summary>
      ${custom === undefined ? this.#defaultBody(call, partial) : custom}
    </details>`;
  }

  #defaultBody(call: ToolCall, partial: string | undefined): unknown {
    const s = this.strings;
    const args =
      partial ??
      (Object.keys(call.arguments).length ? JSON.stringify(call.arguments, null, 2) : "");
    const output = this.result?.content ?? outputOf(this.execution);
    const text = textOf(output);
    const images = Array.isArray(output)
      ? (output as readonly { type?: string }[]).filter(
          (b): b is ImageContent => b?.type === "image",
        )
      : [];
    return html`${
      args
        ? html`<div class="section"><div class="label">${s.toolArguments}</div><pre part="tool-arguments">${args}</pre></div>`
        : nothing
    }${
      text || images.length
        ? html`<div class="section"><div class="label">${this.result ? s.toolResult : s.toolOutput}</div><pre part="tool-output" class="output">${text}</pre>${images.map(
            (image, index) => {
              const src = imageUrl(image);
              return src
                ? html`<img part="image" src=${src} alt=${format(s.imageAlt, { index: index + 1 })} />`
                : nothing;
            },
          )}</div>`
        : nothing
    }`;
  }

  // 0.73.x reports no durations; measure from when this view first saw the tool run.
  #track(status: ToolStatus): void {
    if (status === "running" && this.#startedAt === undefined) this.#startedAt = performance.now();
    if (
      (status === "done" || status === "error") &&
      this.#startedAt !== undefined &&
      this.#measuredMs === undefined
    )
      this.#measuredMs = performance.now() - this.#startedAt;
  }
}

function outputOf(execution: ToolExecution | undefined): unknown {
  const value = execution?.result ?? execution?.partialResult;
  return value !== null && typeof value === "object" && "content" in value
    ? value.content
    : undefined;
}

function summaryOf(call: ToolCall, partial: string | undefined): string {
  for (const key of SUMMARY_KEYS) {
    const value = call.arguments[key];
    if (typeof value === "string") return value.split("\n", 1)[0] ?? "";
  }
  if (partial !== undefined) {
    const match = /"(?:command|path|file_path|pattern|url|query)"\s*:\s*"((?:[^"\\]|\\.)*)/.exec(
      partial,
    );
    if (match?.[1] !== undefined) return match[1].replace(/\\n.*$/s, "").replace(/\\"/g, '"');
  }
  return "";
}

declare global {
  interface HTMLElementTagNameMap {
    "pi-tool-call": PiToolCall;
  }
}
