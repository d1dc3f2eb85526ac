import { PiErrorEvent } from "../events/pi-error.ts";

/** An element with a `busy` state, which it shows while a client call is under way. */
export interface BusyHost extends HTMLElement {
  busy: boolean;
}

/**
 * Runs one client call with the host `busy`, and reports a failure as a `pi-error` event for
 * `action` (after `onError`, for the host's own clean-up). Never rejects: the element has said
 * what went wrong, so its callers need not.
 */
export async function busyTask(
  host: BusyHost,
  action: string,
  task: () => Promise<void>,
  onError?: (error: unknown) => void,
): Promise<void> {
  host.busy = true;
  try {
    await task();
  } catch (error) {
    onError?.(error);
    host.dispatchEvent(new PiErrorEvent(action, error));
  } finally {
    host.busy = false;
  }
}
