import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { type ModelServer, startModelServer, UNICODE_CHUNKS } from "../../src/index.ts";
import { ask, chat, finishOf, parseSse, textOf, thinkingOf, toolCallsOf } from "../support/sse.ts";

describe("scripted model server", () => {
  let server: ModelServer;
  before(async () => {
    server = await startModelServer({
      scenarios: {
        shout: (args) => ({ parts: [{ type: "text", text: args.toUpperCase() }] }),
      },
    });
  });
  after(() => server.close());

  test("listens on 127.0.0.1 and lists its models", async () => {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(server.baseUrl, `${server.url}/v1`);
    const body = (await (await fetch(`${server.baseUrl}/models`)).json()) as {
      data: { id: string }[];
    };
    assert.deepEqual(
      body.data.map((m) => m.id),
      ["scripted", "scripted-reasoning"],
    );
  });

  test("echoes a prompt without directives, ends with usage and [DONE]", async () => {
    const stream = await ask(server.baseUrl, "hello there");
    assert.equal(textOf(stream), "Echo: hello there");
    assert.equal(finishOf(stream), "stop");
    assert.ok(stream.done);
    assert.ok(stream.raw.endsWith("data: [DONE]\n\n"));
    const usage = stream.chunks.at(-1)?.usage;
    assert.ok(usage && usage.completion_tokens > 0);
    assert.equal(stream.chunks[0]?.choices[0]?.delta.role, "assistant");
  });

  test("[[text]] streams word-sized chunks and expands escapes", async () => {
    const stream = await ask(server.baseUrl, "[[text one two three\\nfour]]");
    assert.equal(textOf(stream), "one two three\nfour");
    const pieces = stream.chunks.filter((c) => c.choices[0]?.delta.content);
    assert.ok(pieces.length >= 3, `expected several chunks, got ${pieces.length}`);
  });

  test("[[think]] sends reasoning_content before the text", async () => {
    const stream = await ask(server.baseUrl, "[[think deep thoughts here]] [[text done]]");
    assert.equal(thinkingOf(stream), "deep thoughts here");
    assert.equal(textOf(stream), "done");
    const firstText = stream.chunks.findIndex((c) => c.choices[0]?.delta.content);
    const lastThink = stream.chunks
      .map((c) => c.choices[0]?.delta.reasoning_content)
      .lastIndexOf("here");
    assert.ok(lastThink < firstText);
  });

  test("[[bash]] streams a tool call with arguments in several pieces", async () => {
    const stream = await ask(server.baseUrl, "[[bash echo hi]]");
    const [call] = toolCallsOf(stream);
    assert.ok(call);
    assert.equal(call.name, "bash");
    assert.match(call.id, /^call_\d+_0$/);
    assert.ok(call.pieces >= 3, `arguments came in ${call.pieces} piece(s)`);
    assert.deepEqual(JSON.parse(call.arguments), { command: "echo hi" });
    assert.equal(finishOf(stream), "tool_calls");
  });

  test("[[read]], [[write]], [[edit]] and [[tool]] build the right arguments", async () => {
    const args = async (prompt: string) => {
      const [call] = toolCallsOf(await ask(server.baseUrl, prompt));
      assert.ok(call);
      return { name: call.name, args: JSON.parse(call.arguments) as unknown };
    };
    assert.deepEqual(await args("[[read notes.txt]]"), {
      name: "read",
      args: { path: "notes.txt" },
    });
    assert.deepEqual(await args("[[write a.txt line1\\nline2]]"), {
      name: "write",
      args: { path: "a.txt", content: "line1\nline2" },
    });
    assert.deepEqual(await args("[[edit a.txt line1 => first line]]"), {
      name: "edit",
      args: { path: "a.txt", edits: [{ oldText: "line1", newText: "first line" }] },
    });
    assert.deepEqual(await args('[[tool my_tool {"x":1}]]'), {
      name: "my_tool",
      args: { x: 1 },
    });
  });

  test("two tool directives make two parallel calls", async () => {
    const calls = toolCallsOf(await ask(server.baseUrl, "[[bash ls]] [[read a.txt]]"));
    assert.deepEqual(
      calls.map((c) => c.name),
      ["bash", "read"],
    );
    assert.notEqual(calls[0]?.id, calls[1]?.id);
  });

  test("after tool results it answers with text quoting the output", async () => {
    const response = await chat(server.baseUrl, [
      { role: "user", content: "[[bash echo hi]]" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c1", type: "function", function: { name: "bash", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "c1", content: "hi\n" },
    ]);
    const stream = parseSse(await response.text());
    assert.equal(textOf(stream), "Tool bash returned: hi");
    assert.equal(finishOf(stream), "stop");
  });

  test("[[fail 503 x2]] fails twice per prompt, then succeeds; reset() clears counters", async () => {
    const prompt = "[[fail 503 x2]] [[text recovered]]";
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await chat(server.baseUrl, [{ role: "user", content: prompt }]);
      statuses.push(response.status);
      if (response.status !== 200) {
        const body = (await response.json()) as { error: { message: string } };
        assert.match(body.error.message, /503/);
      } else {
        assert.equal(textOf(parseSse(await response.text())), "recovered");
      }
    }
    assert.deepEqual(statuses, [503, 503, 200]);
    // Another prompt has its own counter.
    const other = await chat(server.baseUrl, [{ role: "user", content: "[[fail 500]] other" }]);
    assert.equal(other.status, 500);
    await other.text();
    server.reset();
    assert.equal(server.requests.length, 0);
    const again = await chat(server.baseUrl, [{ role: "user", content: prompt }]);
    assert.equal(again.status, 503);
    await again.text();
  });

  test("[[slow]] paces chunks and survives a client abort", async () => {
    const started = Date.now();
    const stream = await ask(server.baseUrl, "[[slow 20ms x 5]]");
    assert.equal(textOf(stream), "tick 1 tick 2 tick 3 tick 4 tick 5 ");
    assert.ok(Date.now() - started >= 100, "each chunk should wait 20 ms");

    const controller = new AbortController();
    const response = await chat(
      server.baseUrl,
      [{ role: "user", content: "[[slow 50ms x 100]]" }],
      {},
      controller.signal,
    );
    const reader = response.body?.getReader();
    assert.ok(reader);
    await reader.read();
    controller.abort();
    await reader.cancel().catch(() => {});
    // The server keeps serving after the aborted stream.
    assert.equal(textOf(await ask(server.baseUrl, "still there")), "Echo: still there");
  });

  test("[[long 2000]] streams 2000 words, one chunk each", async () => {
    const stream = await ask(server.baseUrl, "[[long 2000]]");
    const words = textOf(stream).split(" ");
    assert.equal(words.length, 2000);
    assert.equal(words[0], "alpha");
    assert.ok(words[1999]?.endsWith("."));
    assert.equal(stream.chunks.filter((c) => c.choices[0]?.delta.content).length, 2000);
  });

  test("[[unicode]] keeps U+2028/U+2029, CRLF, emoji and CJK intact", async () => {
    const stream = await ask(server.baseUrl, "[[unicode]]");
    const text = textOf(stream);
    assert.equal(text, UNICODE_CHUNKS.join(""));
    for (const needle of ["\u2028", "\u2029", "\r\n", "👩‍💻", "👨‍👩‍👧", "日本語", "e\u0301"]) {
      assert.ok(text.includes(needle), `missing ${JSON.stringify(needle)}`);
    }
    // JSON.stringify leaves U+2028 raw, so the wire carries it unescaped: a trap for line splitters.
    assert.ok(stream.raw.includes("\u2028"));
    // The ZWJ family emoji is split across two chunks.
    const pieces = stream.chunks.map((c) => c.choices[0]?.delta.content ?? "");
    assert.ok(pieces.some((p) => p.endsWith("👨‍👩")));
  });

  test("custom scenarios and unknown directives", async () => {
    assert.equal(textOf(await ask(server.baseUrl, "[[shout hey you]]")), "HEY YOU");
    assert.match(textOf(await ask(server.baseUrl, "[[nope]]")), /Unknown directive \[\[nope\]\]/);
  });

  test("records requests; answers 404 and 400 for bad requests", async () => {
    server.reset();
    await ask(server.baseUrl, "logged");
    const notFound = await fetch(`${server.url}/nope`);
    assert.equal(notFound.status, 404);
    await notFound.text();
    const bad = await fetch(`${server.baseUrl}/chat/completions`, { method: "POST", body: "{" });
    assert.equal(bad.status, 400);
    await bad.text();
    assert.deepEqual(
      server.requests.map((r) => [r.method, r.path, r.status]),
      [
        ["POST", "/v1/chat/completions", 200],
        ["GET", "/nope", 404],
        ["POST", "/v1/chat/completions", 400],
      ],
    );
    assert.equal(server.requests[0]?.body?.messages.length, 1);
  });
});
