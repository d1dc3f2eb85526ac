// Issue 26: a slash command sent while pi streams. pi runs an extension command sent as a prompt
// at once, but refuses one queued as a follow-up or steer: the chat sends those as a prompt, and
// everything else as before.
import { expect, fixture, html, waitUntil } from "@open-wc/testing";
import type { PiClient } from "@pi-kit/client";
import "../../../src/define.ts";
import type { PiChat } from "../../../src/index.ts";
import { settle } from "../../support/helpers.ts";
import { connect, type FakePi, sent } from "../../support/ui-helpers.ts";

const COMMANDS = {
  commands: [
    { name: "demo-confirm", source: "extension" },
    { name: "review", source: "prompt" },
  ],
};

function type(chat: PiChat, text: string, init: KeyboardEventInit = {}): void {
  const input = chat.composer?.input as HTMLTextAreaElement;
  input.value = text;
  input.dispatchEvent(
    new KeyboardEvent("keydown", {
      key: "Enter",
      bubbles: true,
      composed: true,
      cancelable: true,
      ...init,
    }),
  );
}

describe("<pi-chat> commands during a run", () => {
  let pi: FakePi;
  let client: PiClient;
  afterEach(async () => {
    await client?.close();
  });

  it("an extension command goes as a prompt mid-run; a prompt template still follows up", async () => {
    ({ pi, client } = await connect({ get_commands: COMMANDS }));
    const chat = await fixture<PiChat>(html`<pi-chat .client=${client}></pi-chat>`);
    pi.push({ type: "agent_start" });
    await waitUntil(() => client.session.getSnapshot().isRunning, "the run never started");
    await settle(chat);

    type(chat, "/demo-confirm");
    await waitUntil(() => sent(pi, "prompt").length === 1, "the command was not prompted");
    const [prompt] = sent(pi, "prompt");
    expect(prompt?.message).to.equal("/demo-confirm");
    expect(prompt?.streamingBehavior).to.equal(undefined);

    // Steered, too: a steer of an extension command is refused as well.
    type(chat, "/demo-confirm", { ctrlKey: true });
    await waitUntil(() => sent(pi, "prompt").length === 2, "the steered command was not prompted");

    type(chat, "/review this");
    await waitUntil(() => sent(pi, "follow_up").length === 1, "the template did not follow up");
    expect(sent(pi, "follow_up")[0]?.message).to.equal("/review this");
    expect(sent(pi, "steer")).to.have.length(0);
  });
});
