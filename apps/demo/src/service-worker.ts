/**
 * The demo's service worker (built to `/sw.js` by `scripts/service-worker-plugin.ts`, which puts
 * the build's file list and version in front of it as `SHELL_BUILD`). It keeps the app shell (the
 * page and its built files) so the page opens without a network and says it is offline instead of
 * showing the browser's error; nothing else is cached: the API, the WebSocket, the session's data
 * and `/demo-config.json` always go to the network.
 */

/** The shell of one build: the files to keep (paths from the site root) and their version. */
declare const SHELL_BUILD: { readonly version: string; readonly files: readonly string[] };

/** The parts of a service worker's global scope used here (the DOM lib has no worker types). */
interface ShellWorkerScope {
  readonly location: Location;
  readonly clients: { claim(): Promise<void> };
  skipWaiting(): Promise<void>;
  addEventListener(type: "install" | "activate", listener: (event: LifecycleEvent) => void): void;
  addEventListener(type: "fetch", listener: (event: ShellFetchEvent) => void): void;
}
interface LifecycleEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface ShellFetchEvent extends LifecycleEvent {
  readonly request: Request;
  respondWith(response: Promise<Response>): void;
}

const scope = self as unknown as ShellWorkerScope;
const PREFIX = "pi-kit-demo-shell-";
/** One cache per build: a new build's worker fills its own and deletes the others. */
const CACHE = `${PREFIX}${SHELL_BUILD.version}`;
const SHELL = new Set(SHELL_BUILD.files);
/** The page every navigation to the app falls back to when the network is down. */
const PAGE = "/index.html";

scope.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll([...SHELL]))
      .then(() => scope.skipWaiting()),
  );
});

scope.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names.filter((n) => n.startsWith(PREFIX) && n !== CACHE).map((n) => caches.delete(n)),
        ),
      )
      .then(() => scope.clients.claim()),
  );
});

scope.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== scope.location.origin) return;
  if (request.mode === "navigate" && (url.pathname === "/" || url.pathname === PAGE)) {
    // The page itself: always the server's newest, this build's copy only without a network.
    event.respondWith(fetch(request).catch(() => fromShell(PAGE, request)));
  } else if (SHELL.has(url.pathname)) {
    // Built files have hashed names (or are this build's icons): the kept copy is the right one.
    event.respondWith(
      caches.match(url.pathname, { cacheName: CACHE }).then((kept) => kept ?? fetch(request)),
    );
  }
  // Anything else (API, WebSocket, session data, the demo's config) is left to the network.
});

/** The kept copy of `path`, else what the network says about `request` (its error, offline). */
async function fromShell(path: string, request: Request): Promise<Response> {
  return (await caches.match(path, { cacheName: CACHE })) ?? fetch(request);
}
