/** Keeps an element's `theme` on the site's light or dark choice (Starlight's `data-theme`). */
export function followSiteTheme(element: HTMLElement): void {
  const html = document.documentElement;
  const apply = (): void =>
    element.setAttribute("theme", html.dataset.theme === "dark" ? "dark" : "light");
  apply();
  new MutationObserver(apply).observe(html, { attributes: true, attributeFilter: ["data-theme"] });
}
