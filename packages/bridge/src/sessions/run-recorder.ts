/**
 * What the run in progress has produced so far, for a connection that attaches mid-run (a reload,
 * a second viewer, a reconnect): pi's `get_messages` leaves out the message being streamed, so the
 * bridge keeps it and hands it over as one `bridge_run_snapshot` record before the live ones.
 *
 * Memory stays bounded by the run's current state, never its history: the `agent_start` record,
 * the message being streamed (its deltas folded into one message as they arrive, by the protocol's
 * {@link MessageAssembler}), and the tools still running (each its start and latest update,
 * since pi's updates are cumulative). Records are recognised by their type (`peekRecord`, in
 * any key order); only `message_update` deltas are parsed, and of pi 0.73's only the small head
 * before its quadratic `partial` copy.
 */
import {
  type AgentMessage,
  MessageAssembler,
  type MessageUpdateEvent,
  peekRecord,
} from "@pi-kit/protocol";
import { BRIDGE_RUN_SNAPSHOT, type BridgeRunSnapshotRecord } from "@pi-kit/protocol/bridge";

/** A role only an assistant message has; absent, a `message_start` is not the assistant's. */
const ASSISTANT_ROLE = '"role":"assistant"';
/** The id of a tool execution record where pi writes it (right after the type): read unparsed. */
const TOOL_CALL_ID = /^\{"type":"tool_execution_[a-z]+","toolCallId":("(?:[^"\\]|\\.){0,500}")/;
/** pi 1.x's updates start with the cumulative usage, then the delta: `{"type":…,"usage":{…},…`. */
const USAGE_FIRST = '{"type":"message_update","usage":';
/** Where the delta starts in a `message_update` (pi 1.x writes it after the usage). */
const STEP = ',"assistantMessageEvent":{';
/**
 * Where pi 0.73's cumulative copy starts in a `message_update`: it is the last field of
 * `assistantMessageEvent`, after the delta. (Quotes inside strings are escaped, so these texts can
 * only be keys; a key of that name inside a finished tool call's arguments is told apart by the
 * cut text then failing to parse, and the whole record is read instead.)
 */
const PARTIAL = ',"partial":{';

/** A tool still running: its start record and its latest (cumulative) update. */
interface RunningTool {
  readonly start: string;
  update: string | undefined;
}

/** The run in progress of one session, as pi's records tell it. */
export class RunRecorder {
  #agentStart: string | undefined;
  /** The raw `message_start` of a message that is not the assistant's (it streams no deltas). */
  #otherMessage: string | undefined;
  #assembler: MessageAssembler | undefined;
  /** pi 1.x's latest usage of the message, as JSON text: read only for a snapshot. */
  #usage: string | undefined;
  readonly #tools = new Map<string, RunningTool>();
  #runsStarted = 0;

  /** How many runs pi has started (its `agent_start` records) since the session began. */
  get runsStarted(): number {
    return this.#runsStarted;
  }

  /**
   * Reads one record pi wrote (every one, in order, attached or not); `type` is its type when the
   * caller has peeked it already.
   */
  observe(line: string, type: string | undefined = peekRecord(line)?.type): void {
    switch (type) {
      case "message_update":
        if (this.#assembler !== undefined) this.#update(line);
        return;
      case "tool_execution_start":
      case "tool_execution_update":
      case "tool_execution_end":
        this.#tool(line, type.slice("tool_execution_".length));
        return;
      case "message_start":
        this.#messageStart(line);
        return;
      case "message_end":
        this.#endMessage();
        return;
      case "agent_start":
        this.clear();
        this.#agentStart = line;
        this.#runsStarted++;
        return;
      // pi 1.x ends a run with `agent_settled`, which always follows `agent_end`.
      case "agent_end":
        this.clear();
    }
  }

  /** Forgets the run (it ended, or pi exited). */
  clear(): void {
    this.#agentStart = undefined;
    this.#endMessage();
    this.#tools.clear();
  }

  /**
   * The `bridge_run_snapshot` record of the run so far, as JSON text; `undefined` when no run is in
   * progress (a joining client then needs nothing beyond `get_messages`).
   */
  snapshot(): string | undefined {
    if (this.#agentStart === undefined) return undefined;
    const records = [this.#agentStart];
    const current = this.#assembler?.current;
    if (current !== undefined) {
      const usage = this.#usage === undefined ? undefined : parse<unknown>(this.#usage);
      const message = usage === undefined ? current : { ...current, usage };
      records.push(JSON.stringify({ type: "message_start", message }));
    } else if (this.#otherMessage !== undefined) records.push(this.#otherMessage);
    for (const tool of this.#tools.values()) {
      records.push(tool.start);
      if (tool.update !== undefined) records.push(tool.update);
    }
    const record: BridgeRunSnapshotRecord = { type: BRIDGE_RUN_SNAPSHOT, records };
    return JSON.stringify(record);
  }

  #messageStart(line: string): void {
    this.#endMessage();
    // Other messages stream no deltas: kept as text, unparsed (a user's may carry images).
    const message = line.includes(ASSISTANT_ROLE)
      ? parse<{ message?: AgentMessage }>(line)?.message
      : undefined;
    if (message?.role !== "assistant") {
      this.#otherMessage = line;
      return;
    }
    this.#assembler = new MessageAssembler();
    this.#assembler.start(message);
  }

  #endMessage(): void {
    this.#assembler = undefined;
    this.#usage = undefined;
    this.#otherMessage = undefined;
  }

  #update(line: string): void {
    const step = line.indexOf(STEP);
    const event = delta(line, step);
    if (step !== -1 && line.startsWith(USAGE_FIRST)) {
      this.#usage = line.slice(USAGE_FIRST.length, step);
    } else if (event !== undefined && "usage" in event && event.usage !== undefined) {
      // Another key order than pi 1.x's: the usage came with the parsed record.
      this.#usage = JSON.stringify(event.usage);
    }
    if (typeof event?.assistantMessageEvent === "object" && event.assistantMessageEvent !== null) {
      this.#assembler?.update(event);
    }
  }

  #tool(line: string, phase: string): void {
    const match = TOOL_CALL_ID.exec(line);
    let id = match?.[1] === undefined ? undefined : parse<string>(match[1]);
    if (match === null) {
      // Another field order than pi's: read the whole record (tool records are few).
      const toolCallId = parse<{ toolCallId?: unknown }>(line)?.toolCallId;
      id = typeof toolCallId === "string" ? toolCallId : undefined;
    }
    if (id === undefined) return;
    if (phase === "start") this.#tools.set(id, { start: line, update: undefined });
    else if (phase === "end") this.#tools.delete(id);
    else if (phase === "update") {
      const tool = this.#tools.get(id);
      if (tool !== undefined) tool.update = line;
    }
  }
}

/**
 * The delta of one `message_update` (at `step`, see {@link STEP}), read without what surrounds it:
 * pi 1.x's usage (kept as text, see `#usage`) and pi 0.73's two copies of the whole message
 * (quadratic, and they can be ahead of the deltas sent so far); except 0.73's `toolcall_start`,
 * whose tool id and name are only in that copy. Anything unexpected is read whole.
 */
function delta(line: string, step: number): MessageUpdateEvent | undefined {
  if (step !== -1) {
    const cut = line.indexOf(PARTIAL, step);
    const text = cut === -1 ? line.slice(step + 1) : `${line.slice(step + 1, cut)}}}`;
    const head = parse<MessageUpdateEvent>(`{"type":"message_update",${text}`);
    if (
      head !== undefined &&
      !(cut !== -1 && head.assistantMessageEvent?.type === "toolcall_start")
    )
      return head;
  }
  return parse<MessageUpdateEvent>(line);
}

function parse<T>(text: string): T | undefined {
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}
