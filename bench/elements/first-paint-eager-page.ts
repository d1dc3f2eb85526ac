/**
 * The baseline of first-paint.bench.ts: first-paint-page.ts with what the chat page now loads on
 * first use (the dialog's panel, the toasts' cards, the diff's styles) in its entry again, as it
 * was before (issue 26 item 6).
 */
import "../../packages/elements/src/components/dialog/dialog-panel.ts";
import "../../packages/elements/src/components/toasts/toast-card.ts";
import "../../packages/elements/src/styles/diff.ts";
import "./first-paint-page.ts";
