/**
 * The page measured by bundle.bench.ts, as the issue states it: <pi-chat> (with the elements it
 * renders: message list, messages, tool calls, markdown, composer, slash menu, toasts) and
 * <pi-dialog> registered, a WebSocket client, Lit. Elements the page does not use (pickers, session tree...) are
 * not imported; `bundle-page-all.ts` measures everything `@pi-kit/elements/define` registers.
 */
import { createWebSocketTransport, PiClient } from "@pi-kit/client";
import {
  PiChat,
  PiComposer,
  PiDialog,
  PiMarkdown,
  PiMessage,
  PiMessageList,
  PiSlashMenu,
  PiToasts,
  PiToolCall,
} from "@pi-kit/elements";

const elements = {
  "pi-markdown": PiMarkdown,
  "pi-tool-call": PiToolCall,
  "pi-message": PiMessage,
  "pi-message-list": PiMessageList,
  "pi-composer": PiComposer,
  "pi-chat": PiChat,
  "pi-dialog": PiDialog,
  "pi-toasts": PiToasts,
  "pi-slash-menu": PiSlashMenu,
};
for (const [tag, element] of Object.entries(elements)) customElements.define(tag, element);

const chat = document.createElement("pi-chat");
document.body.append(chat);
chat.client = new PiClient(createWebSocketTransport({ url: "ws://127.0.0.1:1/pi" }));
