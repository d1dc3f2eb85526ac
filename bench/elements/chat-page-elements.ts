/**
 * Registers the chat page's elements, as the issue states the page (bundle-page.ts,
 * first-paint-page.ts): `<pi-chat>` with the elements it renders (message list, messages, tool
 * calls, markdown, composer, slash menu, toasts) and `<pi-dialog>`. Elements the page does not use
 * (pickers, session tree...) are not imported.
 */
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
