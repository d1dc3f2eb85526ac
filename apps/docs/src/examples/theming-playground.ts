/**
 * The theming playground: a colour field per token of `TOKENS` (light or dark value, following the
 * site) beside a live chat, and the CSS that gives the look, ready to copy.
 */
import { TOKENS } from "@pi-kit/elements";
import type { LiveExample } from "./chat-examples.ts";
import { editable } from "./editable.ts";

const dark = (): boolean => document.documentElement.dataset.theme === "dark";

export const themingPlayground: LiveExample = {
  async mount(stage) {
    stage.classList.add("theming-playground");
    const controls = document.createElement("form");
    controls.className = "token-controls";
    controls.setAttribute("aria-label", "Design tokens");
    const preview = document.createElement("div");
    const css = document.createElement("pre");
    css.className = "token-css";
    const set = new Map<string, string>();
    const show = (): void => {
      const body = [...set].map(([name, value]) => `  --pi-${name}: ${value};`).join("\n");
      css.textContent = `pi-chat {\n${body || "  /* change a colour */"}\n}`;
    };
    const fields: Array<[HTMLInputElement, string, readonly [string, string]]> = [];
    for (const [name, pair] of Object.entries(TOKENS) as Array<
      [string, readonly [string, string]]
    >) {
      const label = document.createElement("label");
      const input = document.createElement("input");
      input.type = "color";
      input.value = pair[dark() ? 1 : 0];
      input.addEventListener("input", () => {
        set.set(name, input.value);
        preview.style.setProperty(`--pi-${name}`, input.value);
        show();
      });
      label.append(input, ` --pi-${name}`);
      controls.append(label);
      fields.push([input, name, pair]);
    }
    // A switch of the site's scheme shows that scheme's defaults for the tokens not set.
    new MutationObserver(() => {
      for (const [input, name, pair] of fields)
        if (!set.has(name)) input.value = pair[dark() ? 1 : 0];
    }).observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
    stage.append(controls, preview, css);
    show();
    await editable("tool-diff").mount(preview);
  },
};
