import type { PendingDialog, ToolExecution } from "@pi-kit/client";
import type { ImageContent, ToolCall, ToolResultMessage } from "@pi-kit/protocol";
import { type CSSResultOrNative, html, LitElement, nothing } from "lit";
import { format, formatSeconds, imageUrl, textOf } from "../../internal/i18n/format.ts";
import type { PiStrings } from "../../internal/i18n/i18n.ts";
import { en } from "../../internal/i18n/locales/en.ts";
import { adoptPartStyles, LazyPart } from "../../internal/lazy-part.ts";
import { highlightLater } from "../../internal/markdown/highlight-later.ts";
import type { ToolRenderContext, ToolRenderer, ToolStatus } from "../../internal/renderers.ts";
import { baseStyles } from "../../styles/shared.ts";
import { tokenStyles } from "../../styles/tokens.ts";
import { syntaxStyles } from "../markdown/pi-markdown.styles.ts";
import { toolCallStyles } from "./pi-tool-call.styles.ts";
import { repeatsCall } from "./tool-dialogs.ts";
import { clipRows } from "./tool-views/clip.ts";
import { executionOutput, type ToolView } from "./tool-views/view.ts";

/** A built-in view and the styles it needs beyond the card's. */
interface BuiltInView {
  readonly view: ToolView;
  readonly styles?: readonly CSSResultOrNative[];
}

// The built-in views of pi's own tools, each loaded the first time a card needs it.
const VIEWS: Readonly<Record<string, LazyPart<BuiltInView>>> = {
  bash: new LazyPart(() =>
    import("./tool-views/bash-view.ts").then((m) => ({ view: m.bashView, styles: m.bashStyles })),
  ),
  edit: new LazyPart(() =>
    import("./tool-views/edit-view.ts").then((m) => ({ view: m.editView, styles: m.editStyles })),
  ),
  write: new LazyPart(() =>
    import("./tool-views/file-view.ts").then((m) => ({ view: m.writeView, styles: m.fileStyles })),
  ),
  read: new LazyPart(() =>
    import("./tool-views/file-view.ts").then((m) => ({ view: m.readView, styles: m.fileStyles })),
  ),
};

/** Arguments worth showing in the header, by common tool name. */
const SUMMARY_KEYS = ["command", "path", "file_path", "pattern", "url", "query"];

/**
 * One tool call: its arguments as they stream, then the live output, then the result or error,
 * with a status and a duration. pi's own tools get their own views (loaded lazily): `edit` as a
 * diff with line numbers, `write` and `read` as highlighted files (`read` collapsed), `bash` with
 * its ANSI colours and exit code. Finished output stays visible, clipped to a few lines with
 * "show all". A tool waiting for the user's answer to an extension's dialog says "awaiting
 * approval" and shows that dialog in the card. A `<details>` element keeps it keyboard-operable
 * and announces its expanded state.
 *
 * @tagname pi-tool-call
 * @summary A tool call card.
 * @csspart tool-call - The card (`details`).
 * @csspart tool-header - The summary line: name, argument summary, status, duration.
 * @csspart tool-arguments - The arguments block.
 * @csspart tool-output - The live output or result block.
 * @csspart diff - The diff of an `edit`.
 * @csspart file - The lines of a file (`write`, `read`).
 * @csspart file-view - The collapsible file of a `read`.
 * @csspart show-all - The button that shows clipped output in full, or clips it again.
 * @csspart dialog - The dialog panel of a tool awaiting approval.
 * @cssstate running - The tool is preparing or running.
 * @cssstate awaiting - The tool waits for the user's answer.
 * @cssstate error - The tool failed.
 * @cssstate denied - The call was refused (the user denied it, or a policy blocked it): shown as such, not as a failure.
 * @cssstate aborted - The run was stopped before the tool finished (pi's "Operation aborted" or "Command aborted").
 */
export class PiToolCall extends LitElement {
  static override styles = [tokenStyles, baseStyles, syntaxStyles, toolCallStyles];
  static override properties = {
    call: { attribute: false },
    execution: { attribute: false },
    result: { attribute: false },
    streaming: { type: Boolean },
    strings: { attribute: false },
    renderer: { attribute: false },
    dialog: { attribute: false },
    expanded: { state: true },
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
  /** The extension dialog this call waits on (shown in the card), if any. */
  declare dialog: PendingDialog | undefined;
  /**
   * Clipped output is shown in full.
   * @internal
   */
  declare expanded: boolean;

  readonly #internals = this.attachInternals();
  #startedAt: number | undefined;
  #measuredMs: number | undefined;

  constructor() {
    super();
    this.streaming = false;
    this.strings = en;
    this.expanded = false;
  }

  /** The call's current status. */
  get status(): ToolStatus {
    if (this.streaming) return "preparing";
    const failed = this.result?.isError ?? this.execution?.status === "error";
    if (this.result !== undefined || this.execution?.status === "done" || failed) {
      if (!failed) return "done";
      return wasAborted(textOf(this.result?.content ?? executionOutput(this.execution)))
        ? "aborted"
        : "error";
    }
    if (this.dialog !== undefined) return "awaiting";
    return this.execution?.status === "running" ? "running" : "pending";
  }

  protected override render(): unknown {
    const call = this.call;
    if (call === undefined) return nothing;
    const s = this.strings;
    const status = this.status;
    this.#track(status);
    // A call the user (or a policy) refused did not fail: it says so, without alarm.
    const denied =
      status === "error" &&
      /^[^\n]*\b(denied|blocked)\b/i.test(
        textOf(this.result?.content ?? executionOutput(this.execution)),
      );
    const states = this.#internals.states;
    states.clear();
    if (status === "preparing" || status === "running") states.add("running");
    if (status === "awaiting") states.add("awaiting");
    if (status === "error") states.add(denied ? "denied" : "error");
    if (status === "aborted") states.add("aborted");
    const partial = "partialArguments" in call ? String(call.partialArguments) : undefined;
    const ms = this.execution?.durationMs ?? this.result?.durationMs ?? this.#measuredMs;
    const label = {
      preparing: s.toolPreparing,
      pending: s.toolPending,
      awaiting: s.awaitingApproval,
      running: s.toolRunning,
      done: s.toolDone,
      error: denied ? s.toolDenied : s.toolError,
      aborted: s.toolAborted,
    }[status];
    const context: ToolRenderContext = {
      call,
      partialArguments: partial,
      execution: this.execution,
      result: this.result,
      status,
      strings: s,
    };
    const body =
      this.renderer?.(context) ?? this.#builtIn(context) ?? this.#defaultBody(call, partial);
    // The card shows the call: an approval that only repeats it asks its first line, and the
    // header leaves the command (or path) to the body, so it is on screen once.
    const brief =
      this.dialog !== undefined &&
      status === "awaiting" &&
      repeatsCall(this.dialog.request.title, call.arguments);
    return html`<details part="tool-call" class=${denied ? "denied" : status} open>
      <summary part="tool-header">
        <span class="name">${call.name || "tool"}</span>
        <span class="summary">${brief ? "" : summaryOf(call, partial)}</span>
        <span class="status">${label}${ms === undefined ? "" : ` · ${format(s.seconds, { seconds: formatSeconds(ms) })}`}</span>
      </summary>
      ${body}
      ${
        this.dialog !== undefined && status === "awaiting"
          ? html`<pi-dialog passive ?brief=${brief} exportparts="panel:dialog" .dialogs=${[this.dialog]} .strings=${s}></pi-dialog>`
          : nothing
      }
    </details>`;
  }

  protected override updated(): void {
    highlightLater(this.renderRoot);
  }

  // The built-in view of pi's tool, if it has one (and has loaded: until then, and for odd data,
  // the card shows text).
  #builtIn(context: ToolRenderContext): unknown {
    const part = VIEWS[context.call.name];
    const builtIn = part?.module;
    part?.reload(true, this);
    if (builtIn === undefined) return undefined;
    if (builtIn.styles) adoptPartStyles(this, builtIn.styles);
    try {
      return builtIn.view({
        ...context,
        expanded: this.expanded,
        toggle: () => {
          this.expanded = !this.expanded;
        },
      });
    } catch {
      return undefined;
    }
  }

  #defaultBody(call: ToolCall, partial: string | undefined): unknown {
    const s = this.strings;
    const args =
      partial ??
      (Object.keys(call.arguments).length ? JSON.stringify(call.arguments, null, 2) : "");
    const output = this.result?.content ?? executionOutput(this.execution);
    const text = textOf(output);
    const images = Array.isArray(output)
      ? (output as readonly { type?: string }[]).filter(
          (b): b is ImageContent => b?.type === "image",
        )
      : [];
    const { shown, toggle } = clipRows(text ? text.split("\n") : [], {
      expanded: this.expanded,
      toggle: () => {
        this.expanded = !this.expanded;
      },
      strings: s,
    });
    return html`${
      args
        ? html`<div class="section"><div class="label">${s.toolArguments}</div><pre part="tool-arguments">${args}</pre></div>`
        : nothing
    }${
      text || images.length
        ? html`<div class="section"><div class="label">${this.result ? s.toolResult : s.toolOutput}</div><pre part="tool-output" class="output">${shown.join("\n")}</pre>${toggle}${images.map(
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
      (status === "done" || status === "error" || status === "aborted") &&
      this.#startedAt !== undefined &&
      this.#measuredMs === undefined
    )
      this.#measuredMs = performance.now() - this.#startedAt;
  }
}

/**
 * pi's result of a call the user stopped: "Command aborted" (bash, after any output), "Operation
 * aborted" (1.6: every call of the batch that had not finished).
 */
function wasAborted(text: string): boolean {
  const last = text.trimEnd().split("\n").at(-1) ?? "";
  return /^(operation|command) aborted\.?$/i.test(last.trim());
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
