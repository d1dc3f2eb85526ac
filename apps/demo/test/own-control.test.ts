import assert from "node:assert/strict";
import { test } from "node:test";
import { ControlChangeEvent, type ControlState } from "@pi-kit/client";
import { takeBackOwnControl } from "../src/own-control.ts";

/** A transport whose control the test sets, counting the take-control calls. */
class FakeTransport extends EventTarget {
  control: ControlState | undefined;
  takes = 0;

  async takeControl(): Promise<ControlState> {
    this.takes++;
    throw new Error("refused");
  }

  say(controller: string | null, you = "tab-1", readOnly = false): void {
    this.control = {
      you: { id: 2, label: you, readOnly },
      controller: controller === null ? null : { id: 1, label: controller },
      viewers: 2,
      inControl: false,
    };
    this.dispatchEvent(new ControlChangeEvent(this.control));
  }
}

test("own control: a tab takes control back from its own previous socket, once", () => {
  const transport = new FakeTransport();
  transport.say("tab-1");
  const stop = takeBackOwnControl(transport);
  assert.equal(transport.takes, 1, "what the bridge said before counts");
  transport.say("tab-1");
  assert.equal(transport.takes, 1);
  stop();
});

test("own control: another tab's control, nobody's, or a read-only tab is left alone", () => {
  const transport = new FakeTransport();
  const stop = takeBackOwnControl(transport);
  transport.say("tab-2");
  transport.say(null);
  transport.say("tab-1", "tab-1", true);
  assert.equal(transport.takes, 0);
  stop();
  transport.say("tab-1");
  assert.equal(transport.takes, 0, "stopped");
});
