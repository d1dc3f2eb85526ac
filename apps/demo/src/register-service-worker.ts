/**
 * Installs the demo's service worker (`/sw.js`, written by the build only), which keeps the app
 * shell for a visit without a network. The dev server has none: its modules change on every edit.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !("serviceWorker" in navigator)) return;
  // After the page has loaded: installing fetches the whole shell, which must not compete with it.
  const register = () =>
    navigator.serviceWorker.register("/sw.js").catch((error: unknown) => {
      console.warn("pi-kit demo: the page will not open offline:", error);
    });
  if (document.readyState === "complete") void register();
  else addEventListener("load", () => void register(), { once: true });
}
