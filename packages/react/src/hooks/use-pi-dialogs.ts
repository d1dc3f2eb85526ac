import type { DialogReply, PendingDialog, PiClient } from "@pi-kit/client";
import { useEffect, useMemo } from "react";
import { usePiSession } from "./use-pi-session.ts";

/** The client's open extension dialogs, and how to answer them. */
export interface PiDialogs {
  /** Open dialogs, oldest first (`request.method` is `select`, `confirm`, `input` or `editor`). */
  readonly dialogs: readonly PendingDialog[];
  /** Answers a dialog: a string for `select`, `input` and `editor`, a boolean for `confirm`. */
  answer(id: string, reply: DialogReply): boolean;
  /** Cancels a dialog. */
  cancel(id: string): boolean;
}

const NONE: readonly PendingDialog[] = [];

/**
 * Lets a component render pi's extension dialogs itself: while mounted it is the client's dialog
 * handler (dialogs stay open until answered here, or until pi's timeout), and it re-renders when
 * the open dialogs change. Use it with `<PiChat noDialogs>`, or the chat's built-in dialog answers.
 *
 * @example
 * ```tsx
 * const { dialogs, answer } = usePiDialogs(client);
 * return dialogs.map(({ request }) => request.method === "confirm" && (
 *   <button key={request.id} onClick={() => answer(request.id, true)}>{request.title}</button>
 * ));
 * ```
 */
export function usePiDialogs(client: PiClient | undefined): PiDialogs {
  useEffect(() => {
    if (client === undefined) return;
    // Each dialog waits for `answer` / `cancel` (or closes on its own through `signal`).
    return client.ui.setDialogHandler(
      (_request, { signal }) =>
        new Promise<undefined>((resolve) =>
          signal.addEventListener("abort", () => resolve(undefined)),
        ),
    );
  }, [client]);
  const dialogs = usePiSession(client)?.dialogs ?? NONE;
  return useMemo(
    () => ({
      dialogs,
      answer: (id, reply) => client?.ui.answer(id, reply) ?? false,
      cancel: (id) => client?.ui.cancel(id) ?? false,
    }),
    [client, dialogs],
  );
}
