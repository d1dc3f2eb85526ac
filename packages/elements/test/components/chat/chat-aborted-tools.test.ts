// Tool cards of a batch the user stopped: pi 1.6 gives the calls that had not finished an
// "Operation aborted" result (bash: "Command aborted"); the cards read "aborted", not "running"
// and not a red "failed". The events are the ones pi 1.6 sent live for an abort during the
// batch's first approval dialog (client test/live/aborted-batch.test.ts checks pi still does).
import { expect, fixture, html } from "@open-wc/testing";
import type { RpcEvent } from "@pi-kit/protocol";
import "../../../src/define.ts";
import type { PiChat, PiToolCall } from "../../../src/index.ts";
import { answerOf, deepQueryAll, fakeClient, settle, toolCallOf } from "../../support/helpers.ts";

const bash = (id: string, command: string) => toolCallOf("bash", { command }, id);

function end(id: string, text: string): Record<string, unknown>[] {
  const result = { content: [{ type: "text", text }], details: {} };
  const message = { role: "toolResult", toolCallId: id, toolName: "bash", ...result };
  return [
    { type: "tool_execution_end", toolCallId: id, toolName: "bash", result, isError: true },
    { type: "message_start", message: { ...message, isError: true, timestamp: 1 } },
    { type: "message_end", message: { ...message, isError: true, timestamp: 1 } },
  ];
}

describe("<pi-chat>: tool cards of an aborted batch", () => {
  it("read 'aborted' once pi's results come, after reading 'running'; a real failure still fails", async () => {
    const { client, session } = fakeClient();
    const chat = await fixture<PiChat>(html`<pi-chat style="height: 600px"></pi-chat>`);
    chat.client = client;
    const message = answerOf(
      [bash("a", "sleep 30"), bash("b", "echo CONFIRM-b"), bash("c", "make")],
      { stopReason: "toolUse" },
    );
    const send = (events: readonly Record<string, unknown>[]) => {
      for (const event of events) session.handleEvent(event as unknown as RpcEvent);
    };
    send([
      { type: "agent_start" },
      { type: "message_start", message },
      { type: "message_end", message },
      ...["a", "b", "c"].map((id) => ({
        type: "tool_execution_start",
        toolCallId: id,
        toolName: "bash",
        args: {},
      })),
    ]);
    await settle(chat);
    const cards = deepQueryAll<PiToolCall>(chat.shadowRoot as ShadowRoot, "pi-tool-call");
    const label = (card: PiToolCall | undefined) =>
      card?.shadowRoot?.querySelector(".status")?.textContent?.trim();
    expect(cards.map((c) => c.status)).to.deep.equal(["running", "running", "running"]);

    send([
      ...end("a", "Command aborted"),
      ...end("b", "Operation aborted"),
      ...end("c", "make: *** No rule to make target. Stop."),
      { type: "turn_end" },
      { type: "agent_end", messages: [] },
      { type: "agent_settled", aborted: true },
    ]);
    await settle(chat);
    const [a, b, c] = cards;
    for (const card of [a, b]) {
      expect(card?.status).to.equal("aborted");
      expect(label(card)).to.match(/^aborted/);
      expect(card?.matches(":state(aborted)")).to.equal(true);
      expect(card?.matches(":state(running)")).to.equal(false);
      expect(card?.matches(":state(error)")).to.equal(false);
      expect(card?.shadowRoot?.querySelector("details")?.classList.contains("error")).to.equal(
        false,
      );
    }
    expect(b?.shadowRoot?.textContent).to.contain("Operation aborted");
    expect(c?.status).to.equal("error");
    expect(label(c)).to.match(/^failed/);
  });
});
