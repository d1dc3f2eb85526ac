/**
 * Models, thinking levels, queue modes, token usage and cost.
 */

/**
 * A reasoning effort level. `max` is 1.x only; pi clamps any level to what the model supports
 * (and 0.73.1 rejects nothing: `set_thinking_level` with `"bogus"` succeeds).
 */
export type ThinkingLevel = "off" | "minimal" | "low" | "medium" | "high" | "xhigh" | "max";

/** How queued steering or follow-up messages are drained: all at once or one per drain point. */
export type QueueMode = "all" | "one-at-a-time";

/** How a `prompt` sent while the agent streams is queued. */
export type StreamingBehavior = "steer" | "followUp";

/** Per-million-token prices of one tier. */
export interface ModelCostRates {
  readonly input: number;
  readonly output: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
}

/** A price tier that applies above an input-token threshold. 1.x only. */
export interface ModelCostTier extends ModelCostRates {
  readonly inputTokensAbove: number;
}

/** A model's prices, per million tokens. */
export interface ModelCost extends ModelCostRates {
  /** Tiered pricing. 1.x only. */
  readonly tiers?: readonly ModelCostTier[];
}

/**
 * A chat model as pi serialises it (the full catalog entry, not the `{provider, id}` pair
 * pi's own `RpcClient` declares for `set_model`).
 */
export interface Model {
  readonly id: string;
  readonly name: string;
  /** Wire API, for example `openai-completions` or `anthropic-messages`. */
  readonly api: string;
  readonly provider: string;
  readonly baseUrl: string;
  /** Whether the model supports thinking levels above `off`. */
  readonly reasoning: boolean;
  readonly input: readonly ("text" | "image")[];
  readonly cost: ModelCost;
  readonly contextWindow: number;
  readonly maxTokens: number;
  /** Always `chat` (or absent) for models reachable over RPC. 1.x only. */
  readonly type?: "chat";
  /** Extra HTTP headers sent to the provider. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Provider-specific names for thinking levels; `null` marks a level as unsupported. */
  readonly thinkingLevelMap?: Readonly<Partial<Record<ThinkingLevel, string | null>>>;
  /** Provider compatibility overrides; their keys depend on `api`. */
  readonly compat?: Readonly<Record<string, unknown>>;
  /** Provider input limits (request bytes, images). 1.x only. */
  readonly inputLimits?: Readonly<Record<string, unknown>>;
  /** Prompt cache lifetimes per retention tier. 1.x only. */
  readonly promptCache?: Readonly<Record<string, number>>;
  /** Default sampling parameters. 1.x only. */
  readonly samplingParams?: Readonly<Record<string, unknown>>;
  /** Sampling overrides per thinking level. 1.x only. */
  readonly samplingParamsByThinkingLevel?: Readonly<
    Record<string, Readonly<Record<string, unknown>>>
  >;
}

/** Cost of one request, in the model's currency units (usually US dollars). */
export interface UsageCost {
  readonly input: number;
  readonly output: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
  /** Best available total. */
  readonly total: number;
  /** True when `total` is the provider's billed cost rather than a catalog estimate. 1.x only. */
  readonly totalFromProvider?: boolean;
}

/** Token counts and cost of one provider request. */
export interface Usage {
  readonly input: number;
  readonly output: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
  readonly totalTokens: number;
  /** Part of `cacheWrite` written with 1 h retention (Anthropic only). 1.x only. */
  readonly cacheWrite1h?: number;
  /** Reasoning tokens, a subset of `output`, when the provider reports them. 1.x only. */
  readonly reasoning?: number;
  readonly cost: UsageCost;
}
