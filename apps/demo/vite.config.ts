import { defaultClientConditions, defineConfig } from "vite";
import { serviceWorker } from "./scripts/service-worker-plugin.ts";

/** Where `npm run dev` runs the bridge; the dev server proxies the API and WebSocket to it. */
const bridge = process.env.PI_KIT_DEMO_BRIDGE ?? "http://127.0.0.1:8787";

export default defineConfig({
  // Workspace packages resolve to their TypeScript sources: edits to the elements hot-reload.
  resolve: { conditions: ["@pi-kit/source", ...defaultClientConditions] },
  build: { target: "es2022" },
  plugins: [serviceWorker()],
  server: {
    host: "127.0.0.1",
    port: 5173,
    strictPort: true,
    proxy: {
      "/api": bridge,
      "/demo-config.json": bridge,
      "/demo-tab": bridge,
      "/sessions": { target: bridge, ws: true },
    },
  },
});
