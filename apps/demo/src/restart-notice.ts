/**
 * The notice that the server restarted while the page was connected: shown after a reconnect
 * finds another server instance, and hidden again once it was on a visible page long enough to
 * read, when pi takes a message, or when another conversation opens.
 */
import type { ReactiveControllerHost } from "lit";
import { type DemoConfig, loadDemoConfig } from "./demo-config.ts";

/** How long the restart notice stays on a visible page: long enough to read one line. */
const RESTART_NOTICE_MS = 8000;

/** A Lit host that keeps what the server said of itself. */
type RestartHost = ReactiveControllerHost & { config: DemoConfig | undefined };

/** Whether the notice shows, for a Lit host: re-renders it on each change. */
export class RestartNotice {
  readonly #host: RestartHost;
  #shown = false;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(host: RestartHost) {
    this.#host = host;
  }

  /** True while the notice shows. */
  get shown(): boolean {
    return this.#shown;
  }

  /** After a reconnect: did the server restart (another instance than the host knew)? Then say so. */
  async check(): Promise<void> {
    const now = await loadDemoConfig().catch(() => undefined);
    const known = this.#host.config;
    if (now !== undefined && known !== undefined && now.instance !== known.instance) {
      this.#host.config = now;
      this.show();
    }
  }

  /** The server restarted: show the notice until it was read. */
  show(): void {
    this.#set(true);
    this.#hideOnceRead();
  }

  /** Hides the notice (dismissed, or what it said is history now). */
  hide(): void {
    this.#set(false);
  }

  #set(shown: boolean): void {
    if (shown === this.#shown) return;
    this.#shown = shown;
    this.#host.requestUpdate();
  }

  /** Hides the notice once it was on a visible page for a while. */
  #hideOnceRead(): void {
    if (document.visibilityState !== "visible") {
      document.addEventListener("visibilitychange", () => this.#hideOnceRead(), { once: true });
      return;
    }
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.hide(), RESTART_NOTICE_MS);
  }
}
