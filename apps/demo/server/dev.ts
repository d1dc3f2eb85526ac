/**
 * `npm run dev`: the bridge on :8787 (or `PORT`) and Vite's dev server on :5173 with hot reload
 * of the page and of the elements' sources; open the printed URL.
 */
import { createServer } from "vite";
import { exitIfPortBusy, startForTerminal, stopOnSignals } from "./terminal.ts";

const vitePort = 5173;
const devOrigins = [`http://127.0.0.1:${vitePort}`, `http://localhost:${vitePort}`];
const { demo, log } = await startForTerminal({
  port: Number(process.env.PORT ?? 8787),
  origins: devOrigins,
});
// vite.config.ts proxies the API and WebSocket to this bridge.
process.env.PI_KIT_DEMO_BRIDGE = demo.url;
const vite = await createServer({
  root: new URL("..", import.meta.url).pathname,
  server: { port: vitePort },
});
await vite.listen().catch(async (error: unknown) => {
  await demo.close();
  exitIfPortBusy(error, vitePort, "stop the other dev server");
  throw error;
});
// Before the URL is printed: whoever reads it may press Ctrl-C at once.
stopOnSignals(log, () => Promise.all([vite.close(), demo.close()]));
console.log(`pi-kit demo (dev): ${demo.pi.label}`);
console.log(`Open http://127.0.0.1:${vitePort}/#token=${demo.token}`);
