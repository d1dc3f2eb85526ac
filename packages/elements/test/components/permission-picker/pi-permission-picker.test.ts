// <pi-permission-picker>: shows the mode pi-kit's permission extension publishes, sets it with the
// extension's command (also mid-run), and only shows it to a watcher.
import { expect, fixture, html, waitUntil } from "@open-wc/testing";
import { ControlChangeEvent, type ControlState, PiClient } from "@pi-kit/client";
import "../../../src/define.ts";
import type { PiPermissionPicker } from "../../../src/index.ts";
import { connect, FakePi, type Written } from "../../support/ui-helpers.ts";

const select = (el: PiPermissionPicker): HTMLSelectElement =>
  (el.shadowRoot as ShadowRoot).querySelector("select") as HTMLSelectElement;

/** pi's extension publishing `mode`, as the permission extension does. */
const status = (mode: string | undefined) => ({
  type: "extension_ui_request",
  id: `s-${mode}`,
  method: "setStatus",
  statusKey: "pi-kit-permissions",
  ...(mode === undefined ? {} : { statusText: mode }),
});

describe("<pi-permission-picker>", () => {
  it("shows nothing until pi publishes a mode, then the mode, and sets another with /permissions", async () => {
    const { pi, client } = await connect({ prompt: (command: Written) => command });
    const el = await fixture<PiPermissionPicker>(
      html`<pi-permission-picker .client=${client}></pi-permission-picker>`,
    );
    expect(el.hidden).to.equal(true);
    expect(select(el)).to.equal(null);

    pi.push(status("auto-edits"));
    await waitUntil(() => select(el)?.value === "auto-edits", "the mode never showed");
    expect([...select(el).options].map((o) => o.textContent)).to.deep.equal([
      "Ask first",
      "Auto-edit",
      "Full access",
    ]);
    expect(select(el).disabled).to.equal(false);
    await expect(el).to.be.accessible();

    select(el).value = "full";
    select(el).dispatchEvent(new Event("change"));
    const prompt = await pi.waitFor("prompt");
    expect(prompt.message).to.equal("/permissions full");
    expect(prompt.streamingBehavior).to.equal(undefined, "an extension command runs at once");
    // Until pi publishes it, the status says what is in effect: the picker goes back to it.
    await waitUntil(() => !el.busy);
    expect(select(el).value).to.equal("auto-edits");
    pi.push(status("full"));
    await waitUntil(() => select(el).value === "full");
    await client.close();
  });

  it("a watcher sees the mode but cannot change it", async () => {
    const pi = new FakePi("1");
    const control: ControlState = {
      you: { id: 2, label: "Phone", readOnly: false },
      controller: { id: 1, label: "Desk" },
      viewers: 2,
      inControl: false,
    };
    const transport = Object.assign(new EventTarget(), pi.transport, {
      takeControl: async () => control,
    });
    Object.defineProperty(transport, "control", { get: () => control });
    const client = new PiClient(transport, { capabilities: "1" });
    const el = await fixture<PiPermissionPicker>(
      html`<pi-permission-picker .client=${client}></pi-permission-picker>`,
    );
    transport.dispatchEvent(new ControlChangeEvent(control));
    pi.push(status("ask"));
    await waitUntil(() => select(el)?.value === "ask", "the mode never showed");
    expect(select(el).disabled).to.equal(true);
    await client.close();
  });
});
