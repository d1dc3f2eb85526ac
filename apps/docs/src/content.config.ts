import { defineCollection, z } from "astro:content";
import { docsLoader } from "@astrojs/starlight/loaders";
import { docsSchema } from "@astrojs/starlight/schema";

/** Pages may name a live example (src/examples/) shown above their text. */
const extend = z.object({ example: z.string().optional() });

export const collections = {
  docs: defineCollection({ loader: docsLoader(), schema: docsSchema({ extend }) }),
};
