// The chat page's bundle budget (issue 12), run by `npm test` with node:test: <pi-chat> with the
// WebSocket transport must load at most 60 KiB gzipped before anything lazy.
import assert from "node:assert/strict";
import { test } from "node:test";
import { CHAT_PAGE_BUDGET_KIB, measureBundle } from "../../../bench/elements/bundle-size.ts";

test(`the chat page's initial chunks stay within ${CHAT_PAGE_BUDGET_KIB} KiB gzipped`, async () => {
  const { initial, parser, lazy } = await measureBundle("./bundle-page.ts");
  console.log(
    `chat page: ${initial.toFixed(2)} KiB gzipped initially, then the markdown parser ${parser.toFixed(1)} KiB; ${lazy.toFixed(1)} KiB lazy in all`,
  );
  assert.ok(
    initial <= CHAT_PAGE_BUDGET_KIB,
    `${initial.toFixed(2)} KiB > ${CHAT_PAGE_BUDGET_KIB} KiB`,
  );
});
