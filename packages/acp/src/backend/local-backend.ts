/**
 * Sessions of pi processes this agent starts itself (no bridge): one `pi --mode rpc` per ACP
 * session, working in the directory the editor names, gone when the agent exits.
 */
import { PiClient } from "@pi-kit/client";
import { spawnPi } from "@pi-kit/client/process";
import type { SessionBackend } from "./session-backend.ts";

/** Options of {@link localBackend}. */
export interface LocalBackendOptions {
  /** The command that starts pi; `pi` by default. */
  readonly command?: string;
  /** Its arguments; `["--mode", "rpc"]` by default. */
  readonly args?: readonly string[];
  /** Extra environment for pi. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Milliseconds pi has to answer the handshake; 60 000 by default. */
  readonly handshakeTimeoutMs?: number;
}

/** A {@link SessionBackend} that spawns a local pi per session. */
export function localBackend(options: LocalBackendOptions = {}): SessionBackend {
  return {
    stores: false,
    async create(cwd) {
      const transport = await spawnPi({
        cwd,
        ...(options.command === undefined ? {} : { command: options.command }),
        ...(options.args === undefined ? {} : { args: options.args }),
        ...(options.env === undefined ? {} : { env: options.env }),
      });
      try {
        const client = await PiClient.connect(transport, {
          handshakeTimeoutMs: options.handshakeTimeoutMs ?? 60_000,
        });
        const state = client.session.getSnapshot().state ?? (await client.getState());
        return { id: state.sessionId, client, shared: undefined, title: state.sessionName };
      } catch (error) {
        await transport.close();
        throw error;
      }
    },
    async open() {
      return undefined;
    },
    async list() {
      return { sessions: [], nextCursor: null };
    },
  };
}
