// The countdown of <pi-dialog> without a DOM (DialogCountdown): deadlines from pi's timeout, kept
// per dialog until its source drops it; on a wake the due dialogs expire and the showing one warns
// once, ten seconds ahead, unless it was short from the start. Run by `npm test` with node:test.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { DialogRequest } from "@pi-kit/protocol";
import {
  DialogCountdown,
  type PiDialogItem,
} from "../../../src/components/dialog/dialog-countdown.ts";

const confirm = (id: string, timeout?: number): PiDialogItem => ({
  request: {
    type: "extension_ui_request",
    id,
    method: "confirm",
    title: id,
    message: "",
    timeout,
  } as DialogRequest,
});

function countdownOf(pending: PiDialogItem[]) {
  const expired: string[] = [];
  const warned: [string, number][] = [];
  let updates = 0;
  const host = { pending, isConnected: true, requestUpdate: () => void updates++ };
  const countdown = new DialogCountdown(
    host,
    (item) => expired.push(item.request.id),
    (item, seconds) => warned.push([item.request.id, seconds]),
  );
  return { countdown, expired, warned, updates: () => updates };
}

test("a deadline comes from pi's timeout when first asked, and stays until the dialog is dropped", () => {
  const a = confirm("a", 30_000);
  const { countdown } = countdownOf([a]);
  assert.equal(countdown.deadline(a, 1_000), 31_000);
  assert.equal(countdown.deadline(a, 5_000), 31_000, "the first ask fixed it");
  assert.equal(countdown.left(a, 5_000), 26);
  assert.equal(countdown.deadline(confirm("none"), 1_000), undefined, "no timeout: no deadline");
  assert.equal(countdown.deadline({ ...a, deadline: 7 }, 1_000), 7, "the item's own deadline wins");
  countdown.keep(new Set());
  assert.equal(countdown.deadline(a, 9_000), 39_000, "dropped, then seen again: a new deadline");
});

test("a wake expires the due dialogs and warns of the showing one once, ten seconds ahead", () => {
  const shown = confirm("shown", 60_000);
  const due = confirm("due", 2_000);
  const { countdown, expired, warned, updates } = countdownOf([shown, due]);
  countdown.deadline(shown, 0);
  countdown.deadline(due, 0);
  countdown.tick(1_000);
  assert.deepEqual([expired, warned], [[], []]);
  countdown.tick(51_000);
  assert.deepEqual(expired, ["due"]);
  assert.deepEqual(warned, [["shown", 9]]);
  countdown.tick(52_000);
  assert.equal(warned.length, 1, "warned once");
  assert.equal(updates(), 3, "each wake updates the host");
});

test("a dialog that was short from the start is not warned of", () => {
  const short = confirm("short", 12_000);
  const { countdown, warned } = countdownOf([short]);
  countdown.deadline(short, 0);
  countdown.tick(5_000);
  assert.deepEqual(warned, []);
});
