/**
 * The baseline of first-paint.bench.ts: first-paint-page.ts with what the chat page now loads on
 * first use in its entry again (the dialog's panel, the toasts' cards, the diff's styles, the
 * markdown templates with the parser, a message's edit form and error box, the chat's queue and
 * watch bars), as it was before (issue 26 item 6).
 */
import "../../packages/elements/src/components/chat/control-bars.ts";
import "../../packages/elements/src/components/chat/error-notice.ts";
import "../../packages/elements/src/components/chat/message-editing.ts";
import "../../packages/elements/src/components/dialog/dialog-panel.ts";
import "../../packages/elements/src/components/toasts/toast-card.ts";
import "../../packages/elements/src/internal/markdown/markdown-templates.ts";
import "../../packages/elements/src/styles/diff.ts";
import "./first-paint-page.ts";
