/**
 * Starts the live examples of a page: every `figure[data-example]` gets its example (from
 * registry.ts, each loaded lazily) in its `[data-stage]`, once it comes near the viewport.
 * `data-state` on the figure says where it stands: `running`, then `ready` or `failed`.
 */
import { EXAMPLES } from "./registry.ts";

async function start(figure: HTMLElement): Promise<void> {
  const stage = figure.querySelector<HTMLElement>("[data-stage]");
  const load = EXAMPLES[figure.dataset.example ?? ""];
  if (!stage || !load) throw new Error(`No live example named "${figure.dataset.example}"`);
  figure.dataset.state = "running";
  const example = await load();
  await example.mount(stage);
  figure.dataset.state = "ready";
}

/** Starts each example of `root` when it scrolls within a screen of the viewport. */
export function mountExamples(root: ParentNode): void {
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        observer.unobserve(entry.target);
        const figure = entry.target as HTMLElement;
        start(figure).catch((error: unknown) => {
          figure.dataset.state = "failed";
          throw error;
        });
      }
    },
    { rootMargin: "100% 0px" },
  );
  for (const figure of root.querySelectorAll<HTMLElement>("figure[data-example]")) {
    if (figure.dataset.state) continue;
    observer.observe(figure);
    // The editor is loaded on the first click of Edit, never before.
    const edit = figure.querySelector<HTMLButtonElement>("button[data-edit]");
    edit?.addEventListener("click", () => {
      void import("./editor.ts").then((m) => m.toggleEditor(figure, edit));
    });
  }
}
