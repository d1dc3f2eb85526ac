/**
 * `npm run dev`: the bridge on :8787 and Vite's dev server on :5173 with hot reload of the page
 * and of the elements' sources; open the printed URL.
 */
import { createServer } from "vite";
import { startDemoServer } from "./demo-server.ts";

const devOrigins = ["http://127.0.0.1:5173", "http://localhost:5173"];
const demo = await startDemoServer({ port: 8787, origins: devOrigins });
const vite = await createServer({ root: new URL("..", import.meta.url).pathname });
await vite.listen();
console.log(`pi-kit demo (dev): ${demo.pi.label}`);
console.log(`Open http://127.0.0.1:5173/#token=${demo.token}`);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void Promise.all([vite.close(), demo.close()]).then(() => process.exit(0));
  });
}
