// The pi-kit documentation site: Starlight, with every internal link and anchor checked at build.
import starlight from "@astrojs/starlight";
import { defineConfig } from "astro/config";
import starlightLinksValidator from "starlight-links-validator";

export default defineConfig({
  site: "https://pi-kit.github.io",
  base: "/",
  trailingSlash: "always",
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
