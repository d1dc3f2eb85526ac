/**
 * A session's checkpoints as pi's input meets them: the session-start checkpoint is taken before
 * anything a client sends reaches pi, and each run's before pi has the prompt that starts it, so
 * nothing pi does escapes one. An extension command (`/name`, which pi runs at once without a run
 * of its own) gets none: pi is asked once which commands are extensions.
 */
import type { SessionCheckpoints } from "../checkpoints/session-checkpoints.ts";
import { type BridgeLogger, safeLog } from "../logging/logger.ts";
import type { SessionKey } from "../principals/owner.ts";
import type { PiInput } from "./pi-input.ts";

/** What {@link RunCheckpoints} needs of its session. */
export interface RunCheckpointsOptions {
  readonly key: SessionKey;
  readonly checkpoints: SessionCheckpoints;
  /** Where clients' records wait while a checkpoint is taken. */
  readonly input: PiInput;
  /** Asks pi itself (`get_commands`); no client sees the answer. */
  readonly request: (command: Record<string, unknown>) => Promise<Record<string, unknown>>;
  readonly logger: BridgeLogger;
}

/** Holds pi's input back while the session's and each run's checkpoints are taken. */
export class RunCheckpoints {
  readonly #options: RunCheckpointsOptions;
  /** Prompts held back while their run's checkpoint is taken. */
  #held = 0;
  /** The names of pi's extension commands (`get_commands`), asked once: they start no run. */
  #extensionCommands: Promise<ReadonlySet<string>> | undefined;

  /** Holds everything clients send until the session-start checkpoint is taken. */
  constructor(options: RunCheckpointsOptions) {
    this.#options = options;
    options.input.hold(() => this.#take(() => options.checkpoints.sessionStart()));
  }

  /** Whether a prompt waits for its run's checkpoint. */
  get holding(): boolean {
    return this.#held > 0;
  }

  /** The message of `line` when it is a prompt that starts a run (none does while `inRun`). */
  promptOf(line: string, inRun: boolean): string | undefined {
    if (inRun || !line.includes('"prompt"')) return undefined;
    try {
      const record = JSON.parse(line) as { type?: unknown; message?: unknown };
      if (record.type === "prompt" && typeof record.message === "string") return record.message;
    } catch {
      // Not JSON: the policy passed it, so pi answers it.
    }
    return undefined;
  }

  /**
   * Writes `line`, the record carrying `prompt`, to pi once its run's checkpoint is taken.
   * Returns `false`, writing nothing, when pi's input has backed up past its bound.
   */
  hold(prompt: string, line: string): boolean {
    this.#held++;
    const held = this.#options.input.hold(
      () =>
        this.#take(async () => {
          if (!(await this.#startsNoRun(prompt))) await this.#options.checkpoints.beforeRun(prompt);
        }).finally(() => this.#held--),
      line,
    );
    if (!held) this.#held--;
    return held;
  }

  /** Whether `prompt` is an extension command, which pi runs at once without a run of its own. */
  async #startsNoRun(prompt: string): Promise<boolean> {
    const name = /^\/(\S+)/.exec(prompt)?.[1];
    if (name === undefined) return false;
    this.#extensionCommands ??= this.#options.request({ type: "get_commands" }).then((response) => {
      const commands = (response.data as { commands?: unknown } | undefined)?.commands;
      if (!Array.isArray(commands)) throw new Error("get_commands: no commands");
      return new Set(
        commands
          .filter((c: { source?: unknown }) => c.source === "extension")
          .map((c: { name?: unknown }) => String(c.name)),
      );
    });
    // pi did not say: asked again next time; this prompt gets its checkpoint.
    return this.#extensionCommands.then(
      (names) => names.has(name),
      () => {
        this.#extensionCommands = undefined;
        return false;
      },
    );
  }

  /** Takes a checkpoint; a failure is logged (pi gets what waited for it regardless). */
  async #take(take: () => Promise<void>): Promise<void> {
    try {
      await take();
    } catch (error) {
      safeLog(this.#options.logger, {
        event: "checkpoint_failed",
        session: this.#options.key,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
}
