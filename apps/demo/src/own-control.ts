/**
 * A reloaded tab takes its control back. Labels are unique per tab here, so a controller with
 * this tab's label is this tab's previous socket (a reload the bridge has not seen go yet): the
 * new one takes control from it, once per connection. A read-only tab never asks.
 */
import type { WebSocketTransport } from "@pi-kit/client";

/** The part of the transport the policy reads and drives. */
export type ControlledTransport = Pick<
  WebSocketTransport,
  "control" | "takeControl" | "addEventListener" | "removeEventListener"
>;

/** Follows `transport`'s control from now on; answers the function that stops following it. */
export function takeBackOwnControl(transport: ControlledTransport): () => void {
  let tookBack = false;
  const controlChanged = (): void => {
    const control = transport.control;
    if (control === undefined) return;
    const own = control.controller?.label === control.you.label;
    if (own && !control.inControl && !control.you.readOnly && !tookBack) {
      tookBack = true;
      void transport.takeControl().catch(() => undefined);
    }
  };
  transport.addEventListener("controlchange", controlChanged);
  controlChanged();
  return () => transport.removeEventListener("controlchange", controlChanged);
}
