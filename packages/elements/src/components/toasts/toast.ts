/** A toast: what `<pi-toasts>` shows and its cards draw. */

import type { ToastType } from "../../events/pi-notify.ts";

export type { ToastType };

/** One notification on screen. */
export interface PiToast {
  readonly id: string;
  readonly message: string;
  readonly type: ToastType;
}
