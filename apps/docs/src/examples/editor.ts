/**
 * The editor of an editable example, loaded on the first click of its Edit button: the script in
 * a text area, Run (or Ctrl/⌘+Enter) runs it into the example, errors are shown under it, Reset
 * restores the original.
 */
import { runSource, SOURCES } from "./editable.ts";
import { isEditable } from "./editable-names.ts";

/** Opens the editor of `figure`'s example below it (once; a second click closes it). */
export function toggleEditor(figure: HTMLElement, button: HTMLButtonElement): void {
  const open = figure.querySelector<HTMLElement>(".example-editor");
  if (open) {
    open.remove();
    button.setAttribute("aria-expanded", "false");
    return;
  }
  const name = figure.dataset.example ?? "";
  const stage = figure.querySelector<HTMLElement>("[data-stage]");
  if (!stage || !isEditable(name)) return;
  const editor = document.createElement("div");
  editor.className = "example-editor";
  const id = `editor-${name}`;
  const label = Object.assign(document.createElement("label"), {
    htmlFor: id,
    textContent: "Code (JavaScript)",
  });
  const area = Object.assign(document.createElement("textarea"), {
    id,
    spellcheck: false,
    value: SOURCES[name],
  });
  area.rows = Math.min(24, area.value.split("\n").length + 1);
  const error = document.createElement("pre");
  error.className = "example-error";
  error.setAttribute("role", "alert");
  const run = async (): Promise<void> => {
    error.textContent = "";
    try {
      await runSource(stage, area.value);
      figure.dataset.edited = area.value === SOURCES[name] ? "" : "true";
    } catch (e) {
      error.textContent = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    }
  };
  const runButton = Object.assign(document.createElement("button"), {
    type: "button",
    textContent: "Run",
  });
  runButton.addEventListener("click", () => void run());
  const reset = Object.assign(document.createElement("button"), {
    type: "button",
    textContent: "Reset",
  });
  reset.addEventListener("click", () => {
    area.value = SOURCES[name];
    void run();
  });
  area.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void run();
    }
  });
  const actions = document.createElement("div");
  actions.className = "example-editor-actions";
  actions.append(runButton, reset, " Ctrl/⌘+Enter runs");
  editor.append(label, area, actions, error);
  figure.append(editor);
  button.setAttribute("aria-expanded", "true");
  area.focus();
}
