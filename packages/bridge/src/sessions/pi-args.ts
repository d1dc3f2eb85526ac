/**
 * pi's command-line choice of model and thinking level applies to a new session; a resumed one
 * keeps what it saved (as `pi --session <file>` without those flags does). pi lets the flags win
 * over the session, so the bridge leaves them out when pi continues a conversation.
 */

/** Flags that choose the model or thinking level, each followed by its value. */
const MODEL_FLAGS = new Set(["--provider", "--model", "--thinking"]);

/**
 * `args` without the flags that choose the model and thinking level. Kept when they come with
 * `--api-key`, which pi only accepts together with `--model`.
 */
export function withoutModelChoice(args: readonly string[]): readonly string[] {
  if (args.includes("--api-key")) return args;
  const kept: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (MODEL_FLAGS.has(arg) && i + 1 < args.length) i++;
    else kept.push(arg);
  }
  return kept;
}
