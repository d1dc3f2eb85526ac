/**
 * @module
 * React components and hooks for the pi coding agent: every pi element as a typed React
 * component (with `onPiSend`-style event props), and hooks for a client's lifetime, its session
 * and its extension dialogs. Safe to render on a server: nothing touches custom elements there.
 */
export * from "./components.ts";
export { type PiClientState, usePiClient } from "./hooks/use-pi-client.ts";
export { type PiDialogs, usePiDialogs } from "./hooks/use-pi-dialogs.ts";
export { usePiSession } from "./hooks/use-pi-session.ts";
