// The components' props are the elements' typed properties and events: tsc accepts these and
// rejects each marked line.
import type { PiClient } from "@pi-kit/client";
import { PiChat, PiDialog, PiModelPicker, usePiSession } from "@pi-kit/react";

declare const client: PiClient;

export function Good() {
  const session = usePiSession(client);
  return (
    <PiChat
      client={client}
      theme="dark"
      pageSize={20}
      noToasts
      src="wss://example.com/sessions/main/ws"
      tokenFrom="fragment"
      onPiSend={(e) => console.log(e.text, e.mode, e.images.length)}
      onPiError={(e) => console.log(e.action, e.error)}
      style={{ "--pi-color-accent": "#0a7" } as React.CSSProperties}
    >
      <PiModelPicker slot="header" onPiModelChange={(e) => e.preventDefault()} />
      <p slot="empty">{session?.messages.length}</p>
    </PiChat>
  );
}

export const badTheme = (
  // @ts-expect-error: not a theme
  <PiChat theme="blue" />
);
// @ts-expect-error: a client, not a URL
export const badClient = <PiChat client="ws://localhost" />;
// @ts-expect-error: pi-send is a PiSendEvent, with no `detail`
export const badEvent = <PiChat onPiSend={(e) => e.detail} />;
// @ts-expect-error: not a property of <pi-dialog>
export const badProp = <PiDialog pageSize={3} />;
// @ts-expect-error: tokenFrom is attribute, fragment or event
export const badTokenFrom = <PiChat tokenFrom="cookie" />;
