// The generated JSX types (`@pi-kit/elements/jsx`), as a JSX framework other than React uses
// them: tsc accepts the elements' real props and events and rejects wrong ones.
import type { PiClient } from "@pi-kit/client";
import type { CustomElements } from "@pi-kit/elements/jsx";

declare global {
  namespace JSX {
    interface Element {}
    interface IntrinsicElements extends CustomElements {}
  }
}

declare const client: PiClient;

export const ok = (
  <pi-chat
    client={client}
    theme="dark"
    page-size={20}
    no-toasts
    onpi-send={(e) => console.log(e.text, e.mode)}
    onpi-error={(e) => console.log(e.action, e.error)}
  >
    <pi-model-picker slot="header" onpi-model-change={(e) => e.preventDefault()} />
  </pi-chat>
);

// @ts-expect-error: not a theme
export const badTheme = <pi-chat theme="blue" />;
// @ts-expect-error: a client, not a URL
export const badClient = <pi-chat client="ws://localhost" />;
// @ts-expect-error: pi-send carries no `detail`
export const badEvent = <pi-chat onpi-send={(e) => e.detail} />;
