// A Markdown copy of every page at its address plus `.md` (`/elements/pi-chat.md`), for agents
// and for readers who want the source: the page's title and description, then its text.
import { getCollection } from "astro:content";
import type { APIRoute, GetStaticPaths } from "astro";

export const getStaticPaths = (async () =>
  (await getCollection("docs")).map((page) => ({
    params: { slug: page.id },
    props: { page },
  }))) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) => {
  const { page } = props as { page: Awaited<ReturnType<typeof getCollection<"docs">>>[number] };
  const head = [`# ${page.data.title}`, "", page.data.description ?? "", ""].join("\n");
  return new Response(`${head}\n${(page.body ?? "").trim()}\n`, {
    headers: { "content-type": "text/markdown; charset=utf-8" },
  });
};
