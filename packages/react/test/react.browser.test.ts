import { expect, waitUntil } from "@open-wc/testing";
import { createReplayTransport, PiClient, type ReplayTransport } from "@pi-kit/client";
import type { PiChat as PiChatElement } from "@pi-kit/elements";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { createElement as h, type ReactNode } from "react";
import { Dialogs } from "../examples/dialogs.tsx";
import { PiChat, usePiClient, usePiSession } from "../src/index.ts";

/** A client playing a recorded pi 1.6.0 session, answering what the page sends as pi did. */
async function replay(name: string): Promise<{ client: PiClient; transport: ReplayTransport }> {
  const response = await fetch(`/packages/protocol/test/fixtures/pi-1.6.0/${name}.jsonl`);
  const transport = createReplayTransport(await response.text(), {
    speed: Number.POSITIVE_INFINITY,
    keepOpen: true,
  });
  return { client: new PiClient(transport, { capabilities: "1" }), transport };
}

const chatElement = (): PiChatElement => {
  const chat = document.querySelector("pi-chat");
  if (chat === null) throw new Error("no <pi-chat>");
  return chat;
};

afterEach(cleanup);

/** A chat whose header counts the session's messages, recording what it sends. */
function CountingChat({ client, sent }: { client: PiClient; sent: string[] }): ReactNode {
  const session = usePiSession(client);
  return h(
    PiChat,
    { client, theme: "dark", onPiSend: (e) => sent.push(`${e.mode}: ${e.text}`) },
    h("span", { slot: "header" }, `${session?.messages.length ?? 0} messages`),
  );
}

function Messages({ client }: { client: PiClient | undefined }): ReactNode {
  const session = usePiSession(client);
  return h("p", null, session === undefined ? "no session" : `${session.messages.length}`);
}

/** Shows where usePiClient stands: connecting, connected, or the error. */
function Connection({
  connect,
}: {
  connect: (signal: AbortSignal) => Promise<PiClient>;
}): ReactNode {
  const { client, error } = usePiClient(connect);
  return h("p", null, error instanceof Error ? error.message : client ? "connected" : "connecting");
}

describe("<PiChat> and usePiSession", () => {
  it("takes its client as a property, reports pi-send to onPiSend, and re-renders on the session", async () => {
    const { client } = await replay("text");
    const sent: string[] = [];
    render(h(CountingChat, { client, sent }));
    const chat = chatElement();
    await chat.updateComplete;
    expect(chat.client).to.equal(client);
    expect(chat.hasAttribute("client")).to.equal(false);
    expect(chat.getAttribute("theme")).to.equal("dark");
    expect(screen.getByText("0 messages").slot).to.equal("header");

    await client.getState();
    await act(() => chat.send("[[text Hello from pi-kit.]]"));
    expect(sent).to.deep.equal(["prompt: [[text Hello from pi-kit.]]"]);
    // The system, user and assistant messages of the recorded run.
    await waitUntil(() => screen.queryByText("3 messages"), "the header never counted the answer");
    await client.close();
  });

  it("gives undefined for no client", () => {
    render(h(Messages, { client: undefined }));
    expect(screen.getByText("no session")).to.exist;
  });
});

describe("usePiDialogs", () => {
  it("shows pi's dialog in the page and answers it (the README's example)", async () => {
    const { client, transport } = await replay("extension-dialog");
    render(h("div", null, h(PiChat, { client, noDialogs: true }), h(Dialogs, { client })));
    await client.getState();
    const prompt = client.prompt("/ui select");
    await waitUntil(() => screen.queryByText("Pick one"), "the dialog never showed");
    fireEvent.click(screen.getByRole("button", { name: "B" }));
    await prompt;
    expect(transport.written.map((r) => JSON.parse(r))).to.deep.include({
      type: "extension_ui_response",
      id: "eb2bad57-24c1-4f34-96ce-d9892c3043b2",
      value: "B",
    });
    await waitUntil(() => screen.queryByText("Pick one") === null, "the dialog stayed");
    await client.close();
  });
});

describe("README", () => {
  it("shows examples/dialogs.tsx verbatim", async () => {
    const text = (file: string) => fetch(`/packages/react/${file}`).then((r) => r.text());
    const readme = await text("README.md");
    const example = await text("examples/dialogs.tsx");
    expect(readme.includes(example.trim())).to.equal(true);
  });
});

describe("usePiClient", () => {
  it("connects after mount, hands the client over, and closes it on unmount", async () => {
    const { client } = await replay("text");
    let signal: AbortSignal | undefined;
    const connect = async (s: AbortSignal) => {
      signal = s;
      await client.getState();
      return client;
    };
    const view = render(h(Connection, { connect }));
    await waitUntil(() => screen.queryByText("connected"), "never connected");
    view.unmount();
    expect(signal?.aborted).to.equal(true);
    await client.closed;
  });

  it("reports a failed connection", async () => {
    render(h(Connection, { connect: () => Promise.reject(new Error("bridge down")) }));
    await waitUntil(() => screen.queryByText("bridge down"), "the error never showed");
  });
});
