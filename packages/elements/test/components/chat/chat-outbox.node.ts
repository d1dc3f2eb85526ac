// The outbox policy of <pi-chat> without a DOM (ChatOutbox): messages wait until the chat can send
// and then go in order (the next one as a follow-up of the first), a chat that cannot send gives
// them back to the composer, as it does a message for a client the page has since replaced, and a
// send pi refused comes back with a pi-error. Run by `npm test` with node:test.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { PiClient } from "@pi-kit/client";
import {
  ChatOutbox,
  type OutboxChat,
  type OutboxLink,
} from "../../../src/components/chat/chat-outbox.ts";

/** A client that records its prompts and answers each when the test says. */
function fakeClient(fail = false) {
  const prompts: { text: string; streamingBehavior?: string }[] = [];
  const client = {
    capabilities: { supports: () => false },
    prompt: async (text: string, options: { streamingBehavior?: string }) => {
      prompts.push({ text, ...options });
      if (fail) throw new Error("refused");
    },
  } as unknown as PiClient;
  return { client, prompts };
}

function chatOf(client: PiClient | undefined, link: OutboxLink) {
  const givenBack: string[] = [];
  const errors: unknown[] = [];
  const chat = Object.assign(new EventTarget(), {
    outboxKey: undefined,
    connection: { client },
    composer: { restore: (texts: readonly string[]) => void givenBack.push(...texts) },
    snapshot: { isRunning: false },
    requestUpdate() {},
  }) satisfies OutboxChat;
  chat.addEventListener("pi-error", (event) =>
    errors.push((event as Event & { action: string }).action),
  );
  const state = { link };
  const outbox = new ChatOutbox(
    chat,
    () => state.link,
    async () => {},
  );
  return { chat, outbox, state, givenBack, errors };
}

test("messages wait while the chat cannot send yet, then go in order, the next as a follow-up", async () => {
  const { client, prompts } = fakeClient();
  const { outbox, state } = chatOf(client, "waiting");
  const first = outbox.send({ text: "one", images: [], mode: undefined });
  const second = outbox.send({ text: "two", images: [], mode: undefined });
  assert.equal(outbox.waiting.length, 2);
  assert.deepEqual(prompts, []);
  state.link = "open";
  outbox.dispatch();
  await Promise.all([first, second]);
  assert.deepEqual(prompts, [{ text: "one" }, { text: "two", streamingBehavior: "followUp" }]);
  assert.equal(outbox.waiting.length, 0);
});

test("a chat that cannot send gives its messages back to the composer", async () => {
  const { client, prompts } = fakeClient();
  const { outbox, givenBack } = chatOf(client, "closed");
  await outbox.send({ text: "typed", images: [], mode: undefined });
  assert.deepEqual(givenBack, ["typed"]);
  assert.deepEqual(prompts, []);
});

test("a message for a client the page has since replaced goes back, not to the new one", async () => {
  const old = fakeClient();
  const next = fakeClient();
  const { chat, outbox, givenBack } = chatOf(old.client, "waiting");
  const sent = outbox.send({ text: "for the old one", images: [], mode: undefined });
  chat.connection = { client: next.client };
  outbox.dispatch();
  await sent;
  assert.deepEqual(givenBack, ["for the old one"]);
  assert.deepEqual([old.prompts, next.prompts], [[], []]);
});

test("a send pi refused comes back to the composer, with a pi-error", async () => {
  const { client } = fakeClient(true);
  const { outbox, givenBack, errors } = chatOf(client, "open");
  await outbox.send({ text: "refused", images: [], mode: undefined });
  assert.deepEqual(givenBack, ["refused"]);
  assert.deepEqual(errors, ["send"]);
});
