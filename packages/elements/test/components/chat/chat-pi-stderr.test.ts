// pi's stderr diagnostics (an extension that failed to load when pi 1.6 replaced the session, a
// model it could not restore) have no RPC record: the client's pi_stderr event, from a bridge or
// a child process alike. <pi-chat> shows each as a dismissible notice in its toasts.
import { expect, fixture, html, waitUntil } from "@open-wc/testing";
import { PiClient } from "@pi-kit/client";
import "../../../src/define.ts";
import type { PiChat, PiNotifyEvent, PiToasts } from "../../../src/index.ts";
import { settle } from "../../support/helpers.ts";
import { FakePi } from "../../support/ui-helpers.ts";

/** A FakePi whose transport passes pi's stderr on, as the child-process and WebSocket ones do. */
function withStderr() {
  const pi = new FakePi("1");
  const listeners = new Set<(text: string) => void>();
  const transport = Object.assign({}, pi.transport, {
    onPiStderr(listener: (text: string) => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  });
  const client = new PiClient(transport, { capabilities: "1" });
  const stderr = (text: string) => {
    for (const listener of listeners) listener(text);
  };
  return { client, stderr };
}

const FAILED =
  'Error: Failed to load extension "/srv/ext/gate.ts": Failed to load extension: gate.json is missing';

describe("<pi-chat>: pi's stderr", () => {
  it("shows a diagnostic as a notice that can be dismissed, errors as errors", async () => {
    const { client, stderr } = withStderr();
    const chat = await fixture<PiChat>(
      html`<pi-chat style="height: 420px" .client=${client}></pi-chat>`,
    );
    try {
      await settle(chat);
      const toasts = chat.shadowRoot?.querySelector("pi-toasts") as PiToasts;
      const seen: PiNotifyEvent[] = [];
      toasts.addEventListener("pi-notify", (e) => seen.push(e));
      stderr(FAILED);
      stderr("Warning: Could not restore model pikit/gone-model");
      await waitUntil(() => toasts.toasts.length === 2, "the notices are shown");
      // pi's own "Error:" / "Warning:" gives way to the toast's label.
      expect(toasts.toasts.map((t) => [t.type, t.message])).to.deep.equal([
        ["error", FAILED.slice("Error: ".length)],
        ["warning", "Could not restore model pikit/gone-model"],
      ]);
      expect(seen.map((e) => e.source)).to.deep.equal(["stderr", "stderr"]);
      await toasts.updateComplete;
      const alert = toasts.shadowRoot?.querySelector('[role="alert"]');
      expect(alert?.textContent).to.contain("Failed to load extension");
      alert?.querySelector<HTMLButtonElement>('[part="dismiss-button"]')?.click();
      await toasts.updateComplete;
      expect(toasts.toasts.map((t) => t.type)).to.deep.equal(["warning"]);
    } finally {
      await client.close();
    }
  });

  it("leaves a diagnostic to the page that cancels pi-notify", async () => {
    const { client, stderr } = withStderr();
    const chat = await fixture<PiChat>(
      html`<pi-chat style="height: 420px" .client=${client}></pi-chat>`,
    );
    try {
      await settle(chat);
      const toasts = chat.shadowRoot?.querySelector("pi-toasts") as PiToasts;
      const handled: string[] = [];
      toasts.addEventListener("pi-notify", (e) => {
        e.preventDefault();
        handled.push(e.message);
      });
      stderr(FAILED);
      await waitUntil(() => handled.length === 1);
      await toasts.updateComplete;
      expect(toasts.toasts).to.have.length(0);
    } finally {
      await client.close();
    }
  });
});
