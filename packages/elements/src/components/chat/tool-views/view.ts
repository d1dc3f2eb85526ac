import type { ToolExecution } from "@pi-kit/client";
import { textOf } from "../../../internal/i18n/format.ts";
import type { Renderable, ToolRenderContext } from "../../../internal/renderers.ts";
import type { ClipState } from "./clip.ts";

/** What a built-in tool view receives: the renderer context and the card's clipping state. */
export interface ToolViewContext extends ToolRenderContext, ClipState {}

/** A built-in view of a tool's body; `undefined` to fall back to arguments and output as text. */
export type ToolView = (context: ToolViewContext) => Renderable | undefined;

/** The content of a live execution's output: the final result, else the partial one. */
export function executionOutput(execution: ToolExecution | undefined): unknown {
  const value = execution?.result ?? execution?.partialResult;
  return value !== null && typeof value === "object" && "content" in value
    ? value.content
    : undefined;
}

/** The text of the tool's output (the result once there, else the live output), if any. */
export function outputText(c: ToolRenderContext): string | undefined {
  const content = c.result?.content ?? executionOutput(c.execution);
  return Array.isArray(content) ? textOf(content) : undefined;
}

/** A string argument of the call, if there is one. */
export function stringArg(c: ToolRenderContext, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = c.call.arguments[name];
    if (typeof value === "string") return value;
  }
  return undefined;
}

/** The highlighter's language for a file path, from its extension. */
export function languageOf(path: string | undefined): string {
  return /\.([\w+-]+)$/.exec(path ?? "")?.[1]?.toLowerCase() ?? "";
}

/** A field of the result's `details` (the result message's, else the live execution's). */
export function detail(c: ToolRenderContext, name: string): unknown {
  for (const details of [c.result?.details, resultDetails(c.execution)])
    if (details !== null && typeof details === "object" && name in details)
      return (details as Record<string, unknown>)[name];
  return undefined;
}

function resultDetails(execution: ToolExecution | undefined): unknown {
  const result = execution?.result;
  return result !== null && typeof result === "object" && "details" in result
    ? result.details
    : undefined;
}
