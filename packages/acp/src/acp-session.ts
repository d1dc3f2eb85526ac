/**
 * One ACP session bound to one pi session: pi's stream forwarded as `session/update`s (including
 * runs another client of the same bridge session starts), prompts run to their end, cancel as
 * pi's abort, dialogs as permission requests, model and thinking level as config options, and
 * usage after each prompt. Control of a shared session is taken when the editor acts, as a tab does.
 */
import type {
  ContentBlock,
  CreateElicitationRequest,
  CreateElicitationResponse,
  RequestPermissionRequest,
  RequestPermissionResponse,
  SessionConfigOption,
  SessionUpdate,
  StopReason,
} from "@agentclientprotocol/sdk";
import type { DialogContext, DialogReply, PiClient, WebSocketTransport } from "@pi-kit/client";
import type { DialogRequest } from "@pi-kit/protocol";
import type { OpenedSession } from "./backend/session-backend.ts";
import { dialogQuestion, dialogReply, formReply, noticeOf } from "./dialogs.ts";
import { configOptions, setConfigOption } from "./translate/config-options.ts";
import { historyUpdates } from "./translate/history-updates.ts";
import { piPrompt } from "./translate/prompt-content.ts";
import { StreamTranslator } from "./translate/stream-updates.ts";

/** What a session needs from the editor's side of the connection. */
export interface SessionPeer {
  /** What the editor said at `initialize` that it can show: forms (elicitation) and notices. */
  readonly shows: { readonly forms: boolean; readonly notices: boolean };
  /** Sends a `session/update` (in order; never throws). */
  update(sessionId: string, update: SessionUpdate): void;
  /** Asks `session/request_permission`; aborting `signal` withdraws the question. */
  requestPermission(
    params: RequestPermissionRequest,
    signal: AbortSignal,
  ): Promise<RequestPermissionResponse>;
  /** Asks `elicitation/create` (a form); aborting `signal` withdraws it. */
  elicit(params: CreateElicitationRequest, signal: AbortSignal): Promise<CreateElicitationResponse>;
}

/** An ACP session driving one pi session. */
export class AcpSession {
  /** The ACP session id. */
  readonly id: string;
  /** The client of the pi session. */
  readonly client: PiClient;
  readonly #shared: WebSocketTransport | undefined;
  readonly #peer: SessionPeer;
  readonly #translator = new StreamTranslator();
  readonly #off: () => void;
  #cancelled = false;

  constructor(opened: OpenedSession, peer: SessionPeer) {
    this.id = opened.id;
    this.client = opened.client;
    this.#shared = opened.shared;
    this.#peer = peer;
    this.#off = this.client.onEvent((event) => {
      for (const update of this.#translator.translate(event)) peer.update(this.id, update);
      if (event.type === "thinking_level_changed") void this.#sendConfig();
      if (
        event.type === "extension_ui_request" &&
        event.method === "notify" &&
        peer.shows.notices
      ) {
        peer.update(this.id, noticeOf(event));
      }
    });
    this.client.ui.setDialogHandler((request, context) => this.#ask(request, context));
  }

  /**
   * Sends the transcript so far as updates (for `session/load`), with the answer still streaming
   * as far as it got (its later deltas follow as the run goes on).
   */
  replay(): void {
    const { messages, streamingMessage } = this.client.session.getSnapshot();
    const shown = streamingMessage === undefined ? messages : [...messages, streamingMessage];
    for (const update of historyUpdates(shown)) this.#peer.update(this.id, update);
  }

  /** Announces pi's slash commands (extension commands, prompt templates, skills); typed as text, they run. */
  async announceCommands(): Promise<void> {
    try {
      const commands = await this.client.getCommands();
      this.#peer.update(this.id, {
        sessionUpdate: "available_commands_update",
        availableCommands: commands.map((command) => ({
          name: command.name,
          description: command.description ?? command.source,
        })),
      });
    } catch {
      // pi 0.73 has no get_commands: the editor offers none, typing them still works.
    }
  }

  /** The model and thinking level as config options. */
  configOptions(): Promise<SessionConfigOption[]> {
    return configOptions(this.client);
  }

  /** Applies an option the editor set; returns all options, or `undefined` for an unknown option. */
  async setConfigOption(id: string, value: string): Promise<SessionConfigOption[] | undefined> {
    await this.#takeControl();
    return (await setConfigOption(this.client, id, value)) ? this.configOptions() : undefined;
  }

  /** Runs one prompt until pi settles; how the turn ended. */
  async prompt(blocks: readonly ContentBlock[]): Promise<StopReason> {
    const { text, images } = piPrompt(blocks);
    await this.#takeControl();
    this.#cancelled = false;
    this.#translator.expectOwnPrompt(text);
    // A run another client started is still going: this prompt follows it, as pi queues a follow-up.
    const result = await this.client.promptAndWait(text, {
      ...(images.length === 0 ? {} : { images }),
      ...(this.client.isRunning ? { streamingBehavior: "followUp" as const } : {}),
    });
    if (this.#cancelled || result.aborted) return "cancelled";
    await this.#sendUsage();
    const last = this.client.session.getSnapshot().messages.at(-1);
    if (last?.role === "assistant" && last.stopReason === "length") return "max_tokens";
    if (last?.role === "assistant" && last.stopReason === "error") {
      throw new Error(last.errorMessage ?? "the model failed");
    }
    return "end_turn";
  }

  /** Aborts the run (`session/cancel`); the prompt waiting on it ends `cancelled`. */
  async cancel(): Promise<void> {
    this.#cancelled = true;
    await this.#takeControl();
    await this.client.abort();
  }

  /** Stops forwarding and closes the connection to pi. */
  async close(): Promise<void> {
    this.#off();
    await this.client.close();
  }

  /** Becomes the connection that drives a shared session, if another one does. */
  async #takeControl(): Promise<void> {
    const control = this.#shared?.control;
    if (this.#shared !== undefined && control !== undefined && !control.inControl) {
      await this.#shared.takeControl();
    }
  }

  async #ask(request: DialogRequest, context: DialogContext): Promise<DialogReply> {
    // While another client drives the session, its user answers; this one waits until it has.
    if (this.#shared?.control?.inControl === false) {
      await new Promise((resolve) =>
        context.signal.addEventListener("abort", resolve, { once: true }),
      );
      return undefined;
    }
    const question = dialogQuestion(request, this.id, this.#peer.shows.forms);
    if (question.kind === "refused") {
      this.#peer.update(this.id, question.update);
      return undefined;
    }
    if (question.kind === "form") {
      try {
        return formReply(await this.#peer.elicit(question.form, context.signal));
      } catch {
        return undefined;
      }
    }
    this.#peer.update(this.id, { sessionUpdate: "tool_call", ...question.toolCall });
    let reply: DialogReply;
    let status: "completed" | "failed" = "failed";
    try {
      const answer = await this.#peer.requestPermission(
        { sessionId: this.id, toolCall: question.toolCall, options: question.options },
        context.signal,
      );
      reply = dialogReply(request, answer.outcome);
      if (reply !== undefined && reply !== false) status = "completed";
    } catch {
      reply = undefined;
    }
    this.#peer.update(this.id, {
      sessionUpdate: "tool_call_update",
      toolCallId: question.toolCall.toolCallId,
      status,
    });
    return reply;
  }

  async #sendConfig(): Promise<void> {
    try {
      const options = await this.configOptions();
      this.#peer.update(this.id, { sessionUpdate: "config_option_update", configOptions: options });
    } catch {
      // The session closed meanwhile: nothing to update.
    }
  }

  async #sendUsage(): Promise<void> {
    try {
      const stats = await this.client.getSessionStats();
      const usage = stats.contextUsage;
      if (usage === undefined) return;
      this.#peer.update(this.id, {
        sessionUpdate: "usage_update",
        used: usage.tokens ?? 0,
        size: usage.contextWindow,
        cost: { amount: stats.cost, currency: "USD" },
      });
    } catch {
      // Usage is a courtesy: a pi that cannot report it leaves the turn's result as it is.
    }
  }
}
