// The filter's debounce of <pi-session-list> without a DOM (SessionListUpkeep): a search runs once
// typing pauses, once for a burst of keys, and not at all after the list left the page. Run by
// `npm test` with node:test.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  FILTER_DELAY_MS,
  SessionListUpkeep,
} from "../../../src/components/session-list/session-list-upkeep.ts";

function upkeepOf() {
  let searches = 0;
  const list = {
    renderRoot: {} as ParentNode,
    loadMore: async () => {},
    addController() {},
    removeController() {},
    requestUpdate() {},
    updateComplete: Promise.resolve(true),
  };
  const upkeep = new SessionListUpkeep(list, () => void searches++);
  return { upkeep, searches: () => searches };
}

test("a burst of typing searches once, when it pauses", (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const { upkeep, searches } = upkeepOf();
  upkeep.filtered();
  t.mock.timers.tick(FILTER_DELAY_MS - 1);
  upkeep.filtered();
  t.mock.timers.tick(FILTER_DELAY_MS - 1);
  assert.equal(searches(), 0);
  t.mock.timers.tick(1);
  assert.equal(searches(), 1);
});

test("a list that left the page does not search", (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const { upkeep, searches } = upkeepOf();
  upkeep.filtered();
  upkeep.hostDisconnected();
  t.mock.timers.tick(FILTER_DELAY_MS);
  assert.equal(searches(), 0);
});
