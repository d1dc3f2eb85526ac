/**
 * The examples' pages laid out as one site, the way the tests and `npm start -w
 * @pi-kit/example-<name>` serve them: each app's build under its name, and under `embed/` only
 * the page beside a copy of the one-file bundle (it must work with nothing else).
 */
import { cpSync, mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

/** Each framework app: its folder under examples/, where its build puts the page, its label. */
export const APPS = [
  { name: "react", dist: "react/dist", label: "React" },
  { name: "vue", dist: "vue/dist", label: "Vue" },
  { name: "svelte", dist: "svelte/dist", label: "Svelte" },
  { name: "angular", dist: "angular/dist/browser", label: "Angular" },
] as const;

/** Every example's name: its folder, its path on the site, and its package `@pi-kit/example-<name>`. */
export const EXAMPLES = ["embed", ...APPS.map((app) => app.name)] as const;

/** One example's name. */
export type ExampleName = (typeof EXAMPLES)[number];

/** Copies the built pages of `names` into a new temp directory (the caller removes it); returns it. */
export function layOutSite(names: readonly ExampleName[] = EXAMPLES): string {
  const root = mkdtempSync(join(tmpdir(), "pi-kit-examples-"));
  for (const app of APPS)
    if (names.includes(app.name)) cpSync(here(app.dist), join(root, app.name), { recursive: true });
  if (names.includes("embed")) {
    mkdirSync(join(root, "embed"));
    cpSync(here("embed/index.html"), join(root, "embed/index.html"));
    cpSync(
      here("../packages/elements/dist/pi-kit.bundle.js"),
      join(root, "embed/pi-kit.bundle.js"),
    );
  }
  return root;
}
