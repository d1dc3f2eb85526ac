/**
 * The bridge's access token as the page keeps it. It arrives in the URL fragment (`#token=…`,
 * which browsers never send to a server), is removed from the address bar at once, and is kept in
 * this origin's `localStorage`, so a reload, a bookmark or a second tab opens without it. The
 * server keeps its token across restarts; when it does get a new one, opening the printed address
 * in any tab hands the new token to every other tab through the `storage` event.
 */

const KEY = "pi-kit-demo:token";
const FRAGMENT = /(?:^#|&)token=([^&]+)/;

/** Reads a token from a printed address (`…#token=…`) or a bare token; `undefined` when neither. */
export function parseToken(input: string): string | undefined {
  const text = input.trim();
  const hash = text.includes("#") ? text.slice(text.indexOf("#")) : "";
  const match = FRAGMENT.exec(hash);
  if (match?.[1]) return decodeURIComponent(match[1]);
  // generateToken() gives 43 base64url characters; accept any plausible bare token.
  return /^[A-Za-z0-9_-]{16,}$/.test(text) ? text : undefined;
}

/** Takes the token out of the address bar into storage, and returns the stored one. */
export function takeToken(): string | undefined {
  const match = FRAGMENT.exec(location.hash);
  if (match?.[1]) {
    storeToken(decodeURIComponent(match[1]));
    history.replaceState(history.state, "", location.pathname + location.search);
  }
  return localStorage.getItem(KEY) ?? undefined;
}

/** Keeps `token` for this origin. */
export function storeToken(token: string): void {
  localStorage.setItem(KEY, token);
}

/** Calls `listener` when another tab stores a new token; returns the remover. */
export function onTokenStored(listener: (token: string) => void): () => void {
  const handler = (event: StorageEvent) => {
    if (event.key === KEY && event.newValue) listener(event.newValue);
  };
  addEventListener("storage", handler);
  return () => removeEventListener("storage", handler);
}
