/** Filling a string's placeholders, and the small formatters the status displays share. */

/** Token counts: 950, 12.3k, 1.2M. */
export function formatTokens(count: number): string {
  if (count < 1000) return String(count);
  if (count < 1_000_000) return `${(count / 1000).toFixed(count < 10_000 ? 1 : 0)}k`;
  return `${(count / 1_000_000).toFixed(1)}M`;
}

/** Cost in dollars with sensible precision for fractions of a cent. */
export function formatCost(dollars: number): string {
  return dollars >= 1 ? dollars.toFixed(2) : dollars.toFixed(dollars >= 0.01 ? 3 : 4);
}

/** Seconds with one decimal below ten. */
export function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return s < 10 ? s.toFixed(1) : String(Math.round(s));
}

/** Text of content that is a string or a list of blocks (images skipped). */
export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  let out = "";
  for (const block of content as readonly { type?: unknown; text?: unknown }[]) {
    if (block?.type === "text" && typeof block.text === "string")
      out += (out ? "\n" : "") + block.text;
  }
  return out;
}

/** A `data:` URL for an image block; `undefined` for anything that is not a raster image type. */
export function imageUrl(image: {
  readonly data: string;
  readonly mimeType: string;
}): string | undefined {
  return /^image\/(png|jpeg|gif|webp|avif)$/.test(image.mimeType)
    ? `data:${image.mimeType};base64,${image.data}`
    : undefined;
}

/** Fills `{name}` placeholders. */
export function format(
  template: string,
  values: Readonly<Record<string, string | number>>,
): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}
