/**
 * A runtime's upgrade that never fails a client's request with a 500: whatever the runtime throws
 * (Deno's `upgradeWebSocket` on a handshake it cannot complete, Bun's refused `server.upgrade`)
 * becomes a refusal with the code `upgrade_failed`, logged once with the runtime's words.
 */
import { BridgeErrorCode } from "../errors/bridge-error.ts";
import type { WebSocketRuntime } from "../ws/runtime.ts";
import type { Refuse } from "./refusal.ts";

/** `runtime` with an `upgrade` that answers what it throws with `refuse`. */
export function guardedUpgrade(runtime: WebSocketRuntime, refuse: Refuse): WebSocketRuntime {
  return {
    upgrade: async (c, events, protocol) => {
      try {
        return await runtime.upgrade(c, events, protocol);
      } catch (error) {
        const words = error instanceof Error ? error.message : String(error);
        return refuse(
          c,
          400,
          `The WebSocket handshake failed: ${words}`,
          BridgeErrorCode.UpgradeFailed,
        );
      }
    },
    bufferedAmount: (raw) => runtime.bufferedAmount(raw),
    terminate: (raw) => runtime.terminate(raw),
  };
}
