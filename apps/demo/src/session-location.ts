/**
 * Which conversation the page shows, kept in the address (`?session=<name>`), never the token: a
 * reload, a bookmark or a second tab reopens the same conversation, and Back returns to the one
 * shown before.
 */

const PARAM = "session";

/** The session named in the address, if any. */
export function sessionInLocation(): string | undefined {
  return new URL(location.href).searchParams.get(PARAM) || undefined;
}

/** Puts `name` in the address: a new history entry, or in place of the current one. */
export function showSessionInLocation(name: string, mode: "push" | "replace"): void {
  const url = new URL(location.href);
  if (url.searchParams.get(PARAM) === name) return;
  url.searchParams.set(PARAM, name);
  if (mode === "push") history.pushState(null, "", url);
  else history.replaceState(null, "", url);
}

/** Calls `listener` with the session in the address after Back or Forward; returns the remover. */
export function onSessionNavigation(listener: (name: string | undefined) => void): () => void {
  const handler = () => listener(sessionInLocation());
  addEventListener("popstate", handler);
  return () => removeEventListener("popstate", handler);
}
