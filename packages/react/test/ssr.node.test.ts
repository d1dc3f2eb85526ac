// Server rendering on Node, where there is no DOM and no custom-element registry of the platform's:
// importing the package works, and rendering touches no registry.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createElement as h, type ReactNode } from "react";
import { renderToString } from "react-dom/server";

const global = globalThis as { customElements?: CustomElementRegistry; document?: unknown };
// Imported in the test, after checking that the platform has no registry of its own.
let pkg: typeof import("../src/index.ts");
let connected = false;

function App(): ReactNode {
  const { PiChat, PiModelPicker, usePiClient, usePiDialogs, usePiSession } = pkg;
  const { client } = usePiClient(() => {
    connected = true;
    throw new Error("never called on the server");
  });
  const session = usePiSession(client);
  const { dialogs } = usePiDialogs(client);
  const count = `${session?.messages.length ?? 0} messages, ${dialogs.length} dialogs`;
  return h(
    PiChat,
    { theme: "dark", pageSize: 20, onPiSend: () => {} },
    h(PiModelPicker, { slot: "header" }),
    h("p", { slot: "empty" }, count),
  );
}

test("components and hooks render to a string, touching no custom-element registry", async () => {
  assert.equal(global.customElements, undefined);
  assert.equal(global.document, undefined);
  pkg = await import("../src/index.ts");
  // Lit's Node build installs its SSR shim as `customElements`: rendering must not reach it.
  const touched: PropertyKey[] = [];
  const shim = global.customElements;
  global.customElements = new Proxy(shim ?? ({} as CustomElementRegistry), {
    get(target, key) {
      touched.push(key);
      return Reflect.get(target, key);
    },
  });
  try {
    // Element properties are set in the browser after hydration (as @lit/react does), so the
    // server writes the bare tags and the page's own children.
    assert.equal(
      renderToString(h(App)),
      '<pi-chat><pi-model-picker slot="header"></pi-model-picker><p slot="empty">0 messages, 0 dialogs</p></pi-chat>',
    );
  } finally {
    global.customElements = shim;
  }
  assert.deepEqual(touched, []);
  assert.equal(connected, false);
});
