/**
 * Bundle size of a page with <pi-chat>, <pi-dialog>, the WebSocket transport and Lit (see
 * bundle-size.ts): at most {@link CHAT_PAGE_BUDGET_KIB} KiB gzipped initially. The same figure
 * for a page registering every element through `@pi-kit/elements/define` is printed for
 * information. The elements' tests enforce the budget too (test/bundle-budget.node.ts).
 */
import { report } from "../lib/measure.ts";
import { CHAT_PAGE_BUDGET_KIB, measureBundle } from "./bundle-size.ts";

const page = await measureBundle("./bundle-page.ts");
const all = await measureBundle("./bundle-page-all.ts");
console.log(
  `lazy: +${page.parser.toFixed(1)} KiB gzipped for the markdown parser (fetched while the client connects; initial + parser = ${(page.initial + page.parser).toFixed(1)} KiB), +${(page.lazy - page.parser).toFixed(1)} KiB loaded when needed (the dialog's panel, the toasts' cards, tool views, highlighter and its grammars, diff, ANSI, completion of streamed markdown)`,
);
console.log(
  `for information: every element (@pi-kit/elements/define): ${all.initial.toFixed(2)} KiB`,
);
console.log(
  `the chat page's ${page.initialChunks} initial chunks weigh most in (minified bytes): ${page.largest.map(([path, bytes]) => `${path} ${bytes}`).join(", ")}`,
);
report("bundle", [
  {
    name: "initial page (<pi-chat> with its dialog, toasts and slash menu, WebSocket, Lit), minified + gzipped",
    value: page.initial,
    op: "<=",
    target: CHAT_PAGE_BUDGET_KIB,
    unit: " KiB",
  },
]);
