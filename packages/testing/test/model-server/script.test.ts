import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  builtinScenarios,
  parseDirectives,
  scriptReply,
  splitPieces,
  splitWords,
} from "../../src/index.ts";

describe("directives", () => {
  test("parses names, arguments and several directives in order", () => {
    assert.deepEqual(parseDirectives("pre [[Text hello  world ]] mid [[unicode]] [[bash a]]b]]"), [
      { name: "text", args: "hello  world" },
      { name: "unicode", args: "" },
      { name: "bash", args: "a" },
    ]);
    assert.deepEqual(parseDirectives("no directives [[ ]] [[1bad]]"), []);
  });

  test("a plain prompt echoes; directives are read from the last user message", () => {
    const reply = scriptReply(
      {
        messages: [
          { role: "user", content: "[[text old]]" },
          { role: "assistant", content: "old" },
          { role: "user", content: [{ type: "text", text: "new one" }] },
        ],
      },
      {},
      0,
    );
    assert.deepEqual(reply.parts, [{ type: "text", text: "Echo: new one" }]);
  });

  test("a prompt mapped in `prompts` is answered as its directives; others as typed", () => {
    const prompts = { "Say hi twice": "[[text hi hi]]" };
    const said = (text: string) =>
      scriptReply({ messages: [{ role: "user", content: text }] }, builtinScenarios, 0, prompts);
    assert.deepEqual(said("  Say hi twice\n").parts, [{ type: "text", text: "hi hi" }]);
    assert.deepEqual(said("Say hi").parts, [{ type: "text", text: "Echo: Say hi" }]);
    assert.deepEqual(said("toString").parts, [{ type: "text", text: "Echo: toString" }]);
  });
});

describe("chunking", () => {
  test("splitWords keeps whitespace with the words", () => {
    assert.deepEqual(splitWords("a bc  d\n"), ["a ", "bc  ", "d\n"]);
    assert.equal(splitWords(" x y ").join(""), " x y ");
  });

  test("splitPieces never cuts a surrogate pair", () => {
    const text = '{"c":"😀😀😀😀"}';
    const pieces = splitPieces(text, 4);
    assert.equal(pieces.join(""), text);
    assert.ok(pieces.length > 1);
    const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
    for (const piece of pieces) assert.doesNotMatch(piece, loneSurrogate);
  });
});
