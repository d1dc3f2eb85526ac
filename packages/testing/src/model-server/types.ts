/**
 * Types shared by the scripted model server and its scenarios.
 * @module
 */

/** One piece of a scripted assistant reply, streamed in order. */
export type ReplyPart =
  | {
      readonly type: "text";
      /** The text; a string is split into word-sized chunks, an array is streamed chunk by chunk as given. */
      readonly text: string | readonly string[];
    }
  | {
      readonly type: "thinking";
      /** Reasoning text sent as `reasoning_content` deltas; split like `text`. */
      readonly text: string | readonly string[];
    }
  | {
      readonly type: "tool_call";
      /** Tool name as pi knows it: `bash`, `read`, `write`, `edit`, or an extension tool. */
      readonly name: string;
      /** Tool arguments; serialised to JSON and streamed in several pieces. */
      readonly arguments: Readonly<Record<string, unknown>>;
      /** Tool call id; defaults to a deterministic `call_<n>`. */
      readonly id?: string;
    };

/** A provider error answered instead of a stream. */
export interface ScriptedFailure {
  /** HTTP status, e.g. 503 (pi retries 429/5xx). */
  readonly status: number;
  /** The `error.message` of the JSON body. */
  readonly message?: string;
}

/** What the server answers to one chat completion request. */
export interface ScriptedReply {
  /** The streamed parts, in order. */
  readonly parts?: readonly ReplyPart[];
  /** Answer with an HTTP error instead of streaming. */
  readonly failure?: ScriptedFailure;
  /** Milliseconds to wait before each streamed chunk (default 0). */
  readonly chunkDelayMs?: number;
  /** How many pieces each tool call's JSON arguments are cut into (default 4). */
  readonly argumentPieces?: number;
  /** `finish_reason` of the last chunk; default `tool_calls` when a tool is called, else `stop`. */
  readonly finishReason?: string;
}

/** A chat message as sent by pi (OpenAI chat completions shape, loosely typed). */
export interface ChatMessage {
  readonly role: string;
  readonly content?: unknown;
  readonly tool_calls?: readonly {
    readonly id?: string;
    readonly function?: { readonly name?: string; readonly arguments?: string };
  }[];
  readonly tool_call_id?: string;
}

/** The parts of a chat completion request the server looks at. */
export interface ChatRequest {
  readonly model?: string;
  readonly messages: readonly ChatMessage[];
  readonly stream?: boolean;
  readonly stream_options?: { readonly include_usage?: boolean };
  readonly tools?: readonly unknown[];
  readonly [key: string]: unknown;
}

/** What a scenario handler gets besides its directive argument. */
export interface ScenarioContext {
  /** The whole request. */
  readonly request: ChatRequest;
  /** Text of the last user message. */
  readonly prompt: string;
  /** How many requests with this exact prompt the server has seen before this one. */
  readonly attempt: number;
}

/** Turns a directive's argument text into a (partial) reply; results of several directives are concatenated. */
export type ScenarioHandler = (args: string, context: ScenarioContext) => ScriptedReply | undefined;

/** One request as recorded by the server. */
export interface RecordedRequest {
  /** HTTP method. */
  readonly method: string;
  /** Request path, e.g. `/v1/chat/completions`. */
  readonly path: string;
  /** Parsed JSON body, if any. */
  readonly body: ChatRequest | undefined;
  /** Status code answered. */
  readonly status: number;
  /** Milliseconds since the server started. */
  readonly t: number;
}
