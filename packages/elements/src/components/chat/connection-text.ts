/**
 * What `<pi-chat>`'s status bar says about its connection, in words: the transport's state once
 * there is a client, the element's own `src` connection before that, and a refusal of the bridge
 * named for what it is (a wrong or missing token, a foreign origin, too many sessions, an expired
 * ticket) rather than "disconnected".
 */
import type { PiClient } from "@pi-kit/client";
import { parseCloseReason } from "@pi-kit/protocol/bridge";
import {
  type ConnectionStatus,
  connectionStatus,
} from "../../internal/controllers/connection-status-controller.ts";
import type { SrcPhase } from "../../internal/controllers/src-controller.ts";
import { format } from "../../internal/i18n/format.ts";
import type { PiStrings } from "../../internal/i18n/i18n.ts";

/** The status bar's connection: its state (for the dot) and its label. */
export interface ConnectionText {
  readonly status: ConnectionStatus;
  readonly label: string;
}

/**
 * The connection text of a chat with `client` (if any) and its own `src` connection's `phase`;
 * `connecting` while the page connects the chat's client itself (`<pi-chat connecting>`).
 */
export function connectionText(
  client: PiClient | undefined,
  phase: SrcPhase,
  connecting: boolean,
  s: PiStrings,
): ConnectionText {
  if (client === undefined) {
    switch (phase.status) {
      case "connecting":
        return { status: "connecting", label: s.connecting };
      case "reconnecting":
        return {
          status: "reconnecting",
          label: refusalText(phase.error, s) ?? s.bridgeUnreachable,
        };
      case "failed":
        return { status: "disconnected", label: refusalText(phase.error, s) ?? s.disconnected };
      default:
        return connecting
          ? { status: "connecting", label: s.connecting }
          : { status: "none", label: s.noClient };
    }
  }
  const status = connectionStatus(client);
  // Test doubles and custom clients may have no transport.
  const state = (client.transport as { state?: TransportState } | undefined)?.state;
  if (status === "reconnecting") {
    return { status, label: refusalText(state?.lastClose, s) ?? s.reconnecting };
  }
  if (status === "disconnected") {
    return { status, label: refusalText(state?.closeInfo?.error, s) ?? s.disconnected };
  }
  const labels = { connected: s.connected, connecting: s.connecting, none: s.noClient };
  return { status, label: labels[status] };
}

/** The part of a WebSocket transport's state read here. */
interface TransportState {
  readonly lastClose?: { readonly reason: string };
  readonly closeInfo?: { readonly error?: unknown };
}

/**
 * The words for a bridge's refusal carried by `error` (its `bridgeCode`) or by a socket's close
 * (its JSON reason's `code`); `undefined` when it carries none.
 */
export function refusalText(error: unknown, s: PiStrings): string | undefined {
  const { code, detail } = refusalOf(error);
  switch (code) {
    case undefined:
      return undefined;
    case "wrong_token":
      return s.refusedWrongToken;
    case "missing_token":
      return s.refusedMissingToken;
    case "origin_not_allowed":
      return s.refusedOrigin;
    case "too_many_sessions":
      return s.refusedTooManySessions;
    case "ticket_expired":
      return s.refusedTicketExpired;
    default:
      return code.startsWith("ticket_")
        ? s.refusedTicket
        : format(s.refusedOther, { reason: detail ?? code });
  }
}

function refusalOf(error: unknown): { code?: string; detail?: string } {
  if (typeof error !== "object" || error === null) return {};
  const typed = error as { bridgeCode?: unknown; closeReason?: unknown; reason?: unknown };
  if (typeof typed.bridgeCode === "string") {
    return {
      code: typed.bridgeCode,
      ...(typeof typed.closeReason === "string" ? { detail: typed.closeReason } : {}),
    };
  }
  // A socket's close as the transport's state holds it: `{code, reason}` with the bridge's JSON
  // reason, read with the bridge protocol's own parser (a few lines, none of the client's).
  if (typeof typed.reason !== "string") return {};
  const { code, reason } = parseCloseReason(typed.reason);
  return code === undefined ? {} : { code, ...(reason === undefined ? {} : { detail: reason }) };
}
