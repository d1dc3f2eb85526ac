// llms.txt (llmstxt.org): the site for agents, one line per page, each linking its Markdown copy.
import { getCollection } from "astro:content";
import type { APIRoute } from "astro";

export const GET: APIRoute = async ({ site }) => {
  const pages = (await getCollection("docs")).sort((a, b) => a.id.localeCompare(b.id));
  const line = (page: (typeof pages)[number]): string =>
    `- [${page.data.title}](${new URL(`${page.id === "index" ? "index" : page.id}.md`, site)}): ${page.data.description ?? ""}`;
  const section = (title: string, list: typeof pages): string[] =>
    list.length ? [`## ${title}`, "", ...list.map(line), ""] : [];
  const body = [
    "# pi-kit",
    "",
    "> Drive the pi coding agent headlessly over its RPC mode (JSON lines over stdin/stdout) from Node, Deno, Bun and browsers, and show it with accessible, themeable web components.",
    "",
    ...section(
      "Start here",
      pages.filter((p) => !p.id.includes("/")),
    ),
    ...section(
      "Guides",
      pages.filter((p) => p.id.startsWith("guides/")),
    ),
    ...section(
      "Elements",
      pages.filter((p) => p.id.startsWith("elements/")),
    ),
    ...section(
      "API",
      pages.filter((p) => p.id.startsWith("api/")),
    ),
  ];
  return new Response(`${body.join("\n")}\n`, {
    headers: { "content-type": "text/plain; charset=utf-8" },
  });
};
