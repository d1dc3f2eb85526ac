/**
 * Content blocks: the pieces that make up message content, as pi writes them.
 */

/** A run of plain text. */
export interface TextContent {
  readonly type: "text";
  readonly text: string;
  /** Provider-opaque signature used to replay the block; never render it. */
  readonly textSignature?: string;
}

/** Model reasoning ("thinking") text. */
export interface ThinkingContent {
  readonly type: "thinking";
  readonly thinking: string;
  /** Provider-opaque signature; holds the encrypted payload when `redacted` is true. */
  readonly thinkingSignature?: string;
  /** True when a safety filter redacted the thinking; `thinking` is then not meaningful. */
  readonly redacted?: boolean;
}

/** An inline image, base64 encoded. Also the shape of `images` on prompt, steer and follow_up. */
export interface ImageContent {
  readonly type: "image";
  /** Base64 data without a `data:` prefix. */
  readonly data: string;
  /** For example `image/png`. */
  readonly mimeType: string;
}

/** A tool call requested by the model inside an assistant message. */
export interface ToolCall {
  readonly type: "toolCall";
  readonly id: string;
  readonly name: string;
  /** Parsed JSON arguments; `{}` when the model sent invalid JSON (see `argumentsError`). */
  readonly arguments: Readonly<Record<string, unknown>>;
  /** Provider-opaque signature. */
  readonly thoughtSignature?: string;
  /** OpenAI Responses tool namespace. 1.x only. */
  readonly namespace?: string;
  /** Why the model's arguments text was not a JSON object. 1.x only. */
  readonly argumentsError?: string;
  /** Raw argument text so far; streaming internals seen only in 0.73.1's `partial` snapshots. */
  readonly partialArgs?: string;
  /** Provider stream index; streaming internals seen only in 0.73.1's `partial` snapshots. */
  readonly streamIndex?: number;
}

/** Content allowed in user messages and tool results. */
export type UserContent = TextContent | ImageContent;

/** Content allowed in assistant messages. */
export type AssistantContent = TextContent | ThinkingContent | ToolCall;

/** Any content block pi writes. */
export type ContentBlock = TextContent | ThinkingContent | ImageContent | ToolCall;
