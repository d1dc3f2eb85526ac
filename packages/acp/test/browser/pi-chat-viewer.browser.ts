/**
 * A `<pi-chat>` in Chromium watching the bridge session an editor drives over ACP sees the same
 * deltas, in the same order, as the editor's `agent_message_chunk`s, and shows the answer.
 * Runs only under wtr-acp.config.mjs, whose plugin serves the bridge and drives the agent.
 */
import { expect, fixture, html } from "@open-wc/testing";
import "@pi-kit/elements/define";
import type { ClientEvent } from "@pi-kit/client";
import type { PiChat } from "@pi-kit/elements";

const { wsUrl, token } = (await (await fetch("/__acp.json")).json()) as {
  wsUrl: string;
  token: string;
};

/** The text of `node` and everything in the shadow roots below it. */
function deepText(node: Node): string {
  const root = node instanceof Element && node.shadowRoot !== null ? node.shadowRoot : undefined;
  const children = [...(root?.childNodes ?? []), ...node.childNodes];
  return node.nodeType === Node.TEXT_NODE
    ? (node.textContent ?? "")
    : children.map(deepText).join("");
}

/** Resolves once `predicate` holds, checked after each of the chat's updates. */
async function until(el: PiChat, predicate: () => boolean, what: string): Promise<void> {
  const deadline = performance.now() + 45_000;
  while (!predicate()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => requestAnimationFrame(resolve));
    await el.updateComplete;
  }
}

describe("<pi-chat> viewing a session an ACP editor drives (Chromium, real bridge)", () => {
  it("sees the editor's deltas as they stream, and shows the answer", async () => {
    const el = await fixture<PiChat>(html`<pi-chat src=${wsUrl} .token=${token}></pi-chat>`);
    await until(el, () => el.client !== undefined, "the client");
    const deltas: string[] = [];
    el.client?.onEvent((event: ClientEvent) => {
      if (event.type === "message_update" && event.assistantMessageEvent.type === "text_delta") {
        deltas.push(event.assistantMessageEvent.delta);
      }
    });
    const text = "[[text the editor and the phone see every word]]";
    const response = await fetch(`/__acp/prompt?text=${encodeURIComponent(text)}`);
    const { stopReason, chunks } = (await response.json()) as {
      stopReason: string;
      chunks: string[];
    };
    expect(stopReason).to.equal("end_turn");
    expect(chunks.join("")).to.equal("the editor and the phone see every word");
    await until(el, () => deltas.join("") === chunks.join(""), "the viewer's deltas");
    expect(deltas).to.deep.equal(chunks);
    await until(
      el,
      () => deepText(el).includes("the phone see every word"),
      "the answer on the page",
    );
    el.remove();
  });
});
