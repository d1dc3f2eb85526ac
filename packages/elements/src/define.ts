/**
 * @module
 * Registers every pi element under its `pi-*` tag (a side-effect import), but `<pi-changes>` and
 * `<pi-pair>`, which a page loads when it shows them (`@pi-kit/elements/changes`, `/pair`). Tags already defined,
 * for example by a second copy of this package, are left alone. In Node, Lit's Node build has put
 * its DOM shim's `customElements` on `globalThis` by then, so the tags go there (nothing renders);
 * where there is no registry at all it registers nothing. Safe to import from server code.
 */
import { PiChat } from "./components/chat/pi-chat.ts";
import { PiComposer } from "./components/chat/pi-composer.ts";
import { PiMessage } from "./components/chat/pi-message.ts";
import { PiMessageList } from "./components/chat/pi-message-list.ts";
import { PiToolCall } from "./components/chat/pi-tool-call.ts";
import { PiDialog } from "./components/dialog/pi-dialog.ts";
import { PiForkPicker } from "./components/fork-picker/pi-fork-picker.ts";
import { PiMarkdown } from "./components/markdown/pi-markdown.ts";
import { PiModelPicker } from "./components/model-picker/pi-model-picker.ts";
import { PiPermissionPicker } from "./components/permission-picker/pi-permission-picker.ts";
import { PiProvider } from "./components/provider/pi-provider.ts";
import { PiSessionList } from "./components/session-list/pi-session-list.ts";
import { PiSessionStats } from "./components/session-stats/pi-session-stats.ts";
import { PiSessionTree } from "./components/session-tree/pi-session-tree.ts";
import { PiSlashMenu } from "./components/slash-menu/pi-slash-menu.ts";
import { PiThinkingPicker } from "./components/thinking-picker/pi-thinking-picker.ts";
import { PiToasts } from "./components/toasts/pi-toasts.ts";

/** The tags this module registers, with their classes. */
export const PI_ELEMENTS: Readonly<Record<string, CustomElementConstructor>> = {
  "pi-provider": PiProvider,
  "pi-markdown": PiMarkdown,
  "pi-tool-call": PiToolCall,
  "pi-message": PiMessage,
  "pi-message-list": PiMessageList,
  "pi-composer": PiComposer,
  "pi-chat": PiChat,
  // dialogs, toasts and pickers
  "pi-dialog": PiDialog,
  "pi-toasts": PiToasts,
  "pi-model-picker": PiModelPicker,
  "pi-permission-picker": PiPermissionPicker,
  "pi-thinking-picker": PiThinkingPicker,
  "pi-session-stats": PiSessionStats,
  "pi-fork-picker": PiForkPicker,
  "pi-session-tree": PiSessionTree,
  "pi-session-list": PiSessionList,
  "pi-slash-menu": PiSlashMenu,
};

const registry: CustomElementRegistry | undefined = globalThis.customElements;
if (registry !== undefined)
  for (const [tag, element] of Object.entries(PI_ELEMENTS))
    if (registry.get(tag) === undefined) registry.define(tag, element);
