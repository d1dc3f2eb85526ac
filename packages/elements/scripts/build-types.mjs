#!/usr/bin/env node
// Generates editor and type support for the elements from the shipped custom-elements.json, with
// the custom-element-*-integration generators: JSX `IntrinsicElements`, Vue `GlobalComponents`,
// Svelte `svelteHTML.IntrinsicElements`, and VS Code's HTML and CSS custom data, in dist/frameworks/.
import { readFileSync, writeFileSync } from "node:fs";
import { generateJsxTypes } from "custom-element-jsx-integration";
import { generateSvelteTypes } from "custom-element-svelte-integration";
import { generateVsCodeCustomElementData } from "custom-element-vs-code-integration";
import { generateVuejsTypes } from "custom-element-vuejs-integration";

const pkg = new URL("..", import.meta.url);
const outdir = new URL("dist/frameworks/", pkg);
const manifest = JSON.parse(readFileSync(new URL("custom-elements.json", pkg), "utf8"));
const common = {
  outdir: outdir.pathname,
  // The element classes, and with them every property's TypeScript type, from the package entry.
  globalTypePath: "../index.js",
  hideLogs: true,
};

const typings = { "jsx.d.ts": generateJsxTypes, "vue.d.ts": generateVuejsTypes };
typings["svelte.d.ts"] = generateSvelteTypes;
for (const [fileName, generate] of Object.entries(typings)) {
  generate(manifest, { ...common, fileName });
  eventsAsClasses(new URL(fileName, outdir), fileName === "svelte.d.ts");
}
propsAsVueNames(new URL("vue.d.ts", outdir));
generateVsCodeCustomElementData(manifest, {
  ...common,
  htmlFileName: "vscode.html-custom-data.json",
  cssFileName: "vscode.css-custom-data.json",
});

/**
 * The generators type every handler's argument as `CustomEvent<type>`; our events are their own
 * `Event` subclasses (the manifest names them), so hand handlers those classes, imported. Svelte's
 * generator writes Svelte 4's `on:name` and `bind:property`; Svelte 5 also takes `onname` and
 * plain properties (set as properties on custom elements), so add those; and it declares
 * `svelteHTML` at the top of what is a module, where it is not global: make it global.
 */
function eventsAsClasses(file, svelte5) {
  const names = new Set();
  let text = readFileSync(file, "utf8").replace(/CustomEvent<(Pi\w+Event)>/g, (_, name) => {
    names.add(name);
    return name;
  });
  if (svelte5)
    text = text
      .replace(/"on:([\w-]+)"(\?: .*;)/g, '"on:$1"$2\n  "on$1"$2')
      .replace(/^type \w+Props = \{[\s\S]*?^\};/gm, (block) =>
        block.replace(/"bind:(\w+)"(\?: .*;)/g, (line, name, rest) =>
          block.includes(`"${name}"?:`) ? line : `${line}\n  "${name}"${rest}`,
        ),
      )
      .replace(
        /^declare namespace svelteHTML \{([\s\S]*)\}\s*$/m,
        "declare global {\n  namespace svelteHTML {$1}\n}\n",
      );
  const imports = `import type { ${[...names].sort().join(", ")} } from "../index.js";\n`;
  writeFileSync(file, imports + text);
}

/**
 * Vue looks a template's `page-size` and `@pi-send` up as the props `pageSize` and `onPiSend` (it
 * camelizes them); the generator names them `"page-size"` and `"onpi-send"`, which nothing matches,
 * so those bindings went unchecked. Name every prop as Vue looks it up.
 */
function propsAsVueNames(file) {
  const camelize = (name) => name.replace(/-(\w)/g, (_, letter) => letter.toUpperCase());
  const text = readFileSync(file, "utf8")
    .replace(/^ {2}"on([\w-]+)"(\?: \(e: )/gm, (_, event, rest) => {
      const name = camelize(event);
      return `  on${name[0].toUpperCase()}${name.slice(1)}${rest}`;
    })
    .replace(/^ {2}"([\w-]+)"(\?: )/gm, (_, attribute, rest) => `  ${camelize(attribute)}${rest}`);
  writeFileSync(file, text);
}
