/**
 * @module
 * Everything a page without a build step needs, as one ES module (`dist/pi-kit.bundle.js`):
 * every element registered (`<pi-changes>` and `<pi-pair>` too), and the client with its WebSocket transport.
 *
 * @example
 * ```html
 * <script type="module">
 *   import { createWebSocketTransport, PiClient } from "./pi-kit.bundle.js";
 *   const transport = createWebSocketTransport({ url: "/sessions/main/ws", token });
 *   document.querySelector("pi-chat").client = await PiClient.connect(transport);
 * </script>
 * <pi-chat></pi-chat>
 * ```
 */
import "./define.ts";
import "./changes.ts";
import "./pair.ts";

export { createWebSocketTransport, PiClient, PiClientError } from "@pi-kit/client";
export * from "./index.ts";
export * from "./locales.ts";
