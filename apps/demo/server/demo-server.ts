/**
 * The demo server: one Hono app on one origin that serves the built page and mounts the bridge,
 * which is how `@pi-kit/bridge` is meant to be used inside an existing server.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "@hono/node-server";
import { serveStatic } from "@hono/node-server/serve-static";
import {
  type Bridge,
  type BridgeLimits,
  type BridgeLogger,
  createBridge,
  generateToken,
  type PairingOptions,
} from "@pi-kit/bridge";
import { nodeWebSocket } from "@pi-kit/bridge/node";
import { Hono } from "hono";
import { type DemoPi, demoPi } from "./pi-config.ts";
import { TabNumbers } from "./tab-numbers.ts";

/** Options of {@link startDemoServer}. */
export interface DemoServerOptions {
  /** Port; 0 picks a free one. Default 8787. */
  readonly port?: number;
  /** Where the built page is; omit to serve only the API (the Vite dev server serves the page). */
  readonly staticRoot?: string;
  /** Extra browser origins allowed to connect (the Vite dev server's). */
  readonly origins?: readonly string[];
  /**
   * Where sessions outlive restarts: `sessions/` in it, and the scripted pi's `workspace/` (pi
   * resumes a session in the directory it was created in). See `demoStateDir()`. Default: a fresh
   * temp dir, so tests never share one.
   */
  readonly stateDir?: string;
  /** Where sessions are stored, overriding `<stateDir>/sessions`. */
  readonly sessionsDir?: string;
  /** Environment deciding the model (see `pi-config.ts`). */
  readonly env?: Record<string, string | undefined>;
  /** The access token; a new random one by default. */
  readonly token?: string;
  /** Receives the bridge's log; default: the bridge's JSON lines on stderr. */
  readonly logger?: BridgeLogger;
  /** The bridge's limits (tests shorten the grace period); the bridge's defaults otherwise. */
  readonly limits?: BridgeLimits;
  /** How pairing tickets behave (tests move the bridge's clock past their minute). */
  readonly pairing?: PairingOptions;
}

/** A running demo server. */
export interface DemoServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** The URL to open: the token travels in the fragment, which browsers never send to a server. */
  readonly openUrl: string;
  readonly token: string;
  readonly bridge: Bridge;
  readonly pi: DemoPi;
  /** Where it keeps its state: `options.stateDir`, or the temp dir it made (removed by `close()`). */
  readonly stateDir: string;
  close(): Promise<void>;
}

/** Built page of this app. */
export const distDir = fileURLToPath(new URL("../dist/", import.meta.url));

/** The elements' one-file browser bundle, for the plain-HTML example (`/static.html`). */
export const bundleDir = fileURLToPath(
  new URL("../../../packages/elements/dist/", import.meta.url),
);

/**
 * Starts the bridge (and the page, when built) on 127.0.0.1. Rejects with Node's `EADDRINUSE`
 * error when the port is taken, having stopped what it started.
 */
export async function startDemoServer(options: DemoServerOptions = {}): Promise<DemoServer> {
  const stateDir = options.stateDir ?? mkdtempSync(join(tmpdir(), "pi-kit-demo-"));
  // A temp dir this server made is its own to remove; a given one is the caller's.
  const removeState = () => {
    if (options.stateDir === undefined) rmSync(stateDir, { recursive: true, force: true });
  };
  const pi = await demoPi(options.env, join(stateDir, "workspace"));
  const token = options.token ?? generateToken();
  const sockets = nodeWebSocket();
  // Listen first: the page's own origin (with the port picked) must be in the bridge's allowlist.
  let app: Hono | undefined;
  const server = serve({
    fetch: (request, env) => (app ? app.fetch(request, env) : new Response(null, { status: 503 })),
    port: options.port ?? 8787,
    hostname: "127.0.0.1",
    websocket: { server: sockets.server },
  });
  const address = await new Promise<AddressInfo>((resolve, reject) => {
    server.once("listening", () => resolve(server.address() as AddressInfo));
    server.once("error", reject);
  }).catch(async (error: unknown) => {
    await pi.close();
    removeState();
    throw error;
  });
  const url = `http://127.0.0.1:${address.port}`;
  const stopServer = () =>
    new Promise<void>((done) => {
      server.close(() => done());
      (server as { closeAllConnections?: () => void }).closeAllConnections?.();
    });
  let bridge: Bridge;
  try {
    bridge = createBridge(
      {
        pi: pi.spec,
        token,
        url,
        origins: [url, `http://localhost:${address.port}`, ...(options.origins ?? [])],
        sessionsDir: options.sessionsDir ?? join(stateDir, "sessions"),
        // pi-kit's permission extension: edits in the workspace run, shell commands ask first.
        permissions: { mode: "auto-edits" },
        ...(options.logger === undefined ? {} : { logger: options.logger }),
        ...(options.limits === undefined ? {} : { limits: options.limits }),
        ...(options.pairing === undefined ? {} : { pairing: options.pairing }),
      },
      sockets.runtime,
    );
  } catch (error) {
    // Another demo holds the sessions (SessionsDirInUseError): stop what this one started.
    await stopServer();
    await pi.close();
    removeState();
    throw error;
  }
  app = new Hono();
  // `instance` changes with every start, so an open page can tell a restart from a network blip.
  const instance = randomUUID();
  app.get("/demo-config.json", (c) =>
    c.json({ label: pi.label, scripted: pi.scripted, instance }, 200, {
      "cache-control": "no-store",
    }),
  );
  const tabs = new TabNumbers();
  app.post("/demo-tab", async (c) => {
    const asked = (await c.req.json().catch(() => ({}))) as { key?: unknown; kept?: unknown };
    if (typeof asked.key !== "string" || asked.key.length > 64) return c.json({}, 400);
    return c.json({ tab: tabs.claim(asked.key, asked.kept) });
  });
  // The page first: the bridge's routes all require the token, the page itself is no secret.
  if (options.staticRoot !== undefined) {
    app.use(
      "/vendor/*",
      serveStatic({ root: bundleDir, rewriteRequestPath: (path) => path.replace(/^\/vendor/, "") }),
    );
    app.use("/*", serveStatic({ root: options.staticRoot }));
  }
  app.route("/", bridge.app);
  return {
    url,
    openUrl: `${url}/#token=${token}`,
    token,
    bridge,
    pi,
    stateDir,
    async close() {
      await bridge.close();
      await stopServer();
      await pi.close();
      removeState();
    },
  };
}
