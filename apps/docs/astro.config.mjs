// The pi-kit documentation site: Starlight, with every internal link and anchor checked at build.
import { fileURLToPath } from "node:url";
import starlight from "@astrojs/starlight";
import { defineConfig } from "astro/config";
import starlightLinksValidator from "starlight-links-validator";
import { crawlFrameworkPkgs } from "vitefu";

// Astro and Starlight are installed from site-deps/ (they need Node 22, see README.md), so they
// are not in this package's package.json, where Astro looks for the Astro packages that Vite must
// bundle rather than import (they import `astro:` modules). Find them from site-deps/ as Astro
// would, and bundle them in every environment, as Astro does with those it finds.
const { ssr } = await crawlFrameworkPkgs({
  root: fileURLToPath(new URL("./site-deps/", import.meta.url)),
  isBuild: true,
  isFrameworkPkgByJson: (pkg) =>
    Boolean(pkg.peerDependencies?.astro || pkg.dependencies?.astro) ||
    Boolean(pkg.keywords?.includes("astro") || pkg.keywords?.includes("astro-component")) ||
    /^(?:@[^/]+\/)?astro-/.test(pkg.name),
});
const bundleSiteDeps = {
  name: "pi-kit:bundle-site-deps",
  configEnvironment: () => ({ resolve: { noExternal: ssr.noExternal } }),
};

export default defineConfig({
  site: "https://pi-kit.github.io",
  base: "/",
  trailingSlash: "always",
  vite: { plugins: [bundleSiteDeps] },
  integrations: [
    starlight({
      title: "pi-kit",
      description:
        "Drive the pi coding agent headlessly over its RPC mode and show it with web components.",
      social: [{ icon: "github", label: "GitHub", href: "https://github.com/pi-kit/pi-kit" }],
      plugins: [starlightLinksValidator()],
      components: { MarkdownContent: "./src/components/MarkdownContent.astro" },
      customCss: ["./src/styles/site.css"],
      sidebar: [
        { label: "Start here", items: ["getting-started", "live-examples"] },
        { label: "Guides", items: [{ autogenerate: { directory: "guides" } }] },
        { label: "Elements", items: [{ autogenerate: { directory: "elements" } }] },
        { label: "API", items: [{ autogenerate: { directory: "api" } }] },
      ],
    }),
  ],
});
