import type { PiClient } from "@pi-kit/client";
import type { ReactiveControllerHost } from "lit";
import { claim, release } from "../claims.ts";
import { ClientWatcher } from "./client-watcher.ts";

/**
 * Holds a client-wide role (see `claims.ts`) for its host: claims it of the client it watches,
 * runs `take` once the role is granted (at once, or when the elements ahead in line let go), and
 * undoes what `take` did and releases the role when it watches another client or none.
 */
export class ClaimController extends ClientWatcher {
  readonly #role: string;
  readonly #take: (client: PiClient) => () => void;
  #taken: (() => void) | undefined;

  /** `take` starts the role on a client and returns what ends it. */
  constructor(host: ReactiveControllerHost, role: string, take: (client: PiClient) => () => void) {
    super(host);
    this.#role = role;
    this.#take = take;
  }

  /** Waiting in line: another element holds the role for the watched client. */
  get standby(): boolean {
    return this.client !== undefined && this.#taken === undefined;
  }

  protected subscribe(client: PiClient): () => void {
    const take = (): void => {
      this.#taken = this.#take(client);
    };
    if (claim(this.#role, client, this, take)) take();
    return () => {
      this.#taken?.();
      this.#taken = undefined;
      release(this.#role, client, this);
    };
  }
}
