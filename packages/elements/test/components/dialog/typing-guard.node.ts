// Which keys <pi-dialog> ignores right after it took the focus (TypingGuard), without a DOM: Enter
// and space for half a second after taking it from a text field, nothing otherwise. Run by
// `npm test` with node:test.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  isTextField,
  TYPING_GUARD_MS,
  TypingGuard,
} from "../../../src/components/dialog/typing-guard.ts";

const element = (localName: string, isContentEditable = false) =>
  ({ localName, isContentEditable }) as unknown as Element;

test("text fields are the textarea, inputs and editable content", () => {
  assert.equal(isTextField(element("textarea")), true);
  assert.equal(isTextField(element("input")), true);
  assert.equal(isTextField(element("div", true)), true);
  assert.equal(isTextField(element("button")), false);
  assert.equal(isTextField(undefined), false);
});

test("after taking the focus from a text field, Enter and space wait out the guard", () => {
  const guard = new TypingGuard();
  guard.opened(element("textarea"), 1000);
  assert.equal(guard.ignores("Enter", 1000), true);
  assert.equal(guard.ignores(" ", 1000 + TYPING_GUARD_MS - 1), true);
  assert.equal(guard.ignores("Escape", 1001), false, "Escape always cancels");
  assert.equal(guard.ignores("ArrowRight", 1001), false);
  assert.equal(guard.ignores("Enter", 1000 + TYPING_GUARD_MS), false);
});

test("after taking the focus from anything else, nothing is ignored", () => {
  const guard = new TypingGuard();
  assert.equal(guard.ignores("Enter", 0), false, "nothing opened yet");
  guard.opened(element("button"), 1000);
  assert.equal(guard.ignores("Enter", 1000), false);
  guard.opened(element("input"), 2000);
  guard.opened(undefined, 2001);
  assert.equal(guard.ignores("Enter", 2002), false, "a later opening decides anew");
});
