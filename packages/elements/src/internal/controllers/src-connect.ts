/**
 * What an element with `src` loads from the client when it first connects. A module of its own,
 * so the dynamic import pulls in these four names, not the whole `@pi-kit/client` entry
 * (recording, replay, history), which a bundler must keep whole for `import("@pi-kit/client")`.
 */
export { createWebSocketTransport, PiClient } from "@pi-kit/client";
export { backoffDelay, resolveBackoff } from "@pi-kit/client/internal";
