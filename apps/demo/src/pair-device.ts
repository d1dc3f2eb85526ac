/**
 * "Continue on another device": the desk mints a single-use pairing ticket for the open session
 * (`POST /api/sessions/:name/pair` with its token) and shows it in `<pi-pair>`, loaded only when
 * the dialog opens; the phone opens `?session=<name>#pair=<ticket>` (or types the short code on the
 * token screen), redeems it once (`POST /api/pair`) for a credential of its own, and joins as a
 * second tab does. A used, expired or unknown ticket gets a page that says so, never a blank one.
 */
import type { PairingMinter } from "@pi-kit/elements";
import { format } from "@pi-kit/elements";
import { css, html, nothing, type ReactiveControllerHost } from "lit";
import { ref } from "lit/directives/ref.js";
import type { DemoStrings } from "./demo-strings.ts";
import { icons } from "./icons.ts";

const FRAGMENT = /(?:^#|&)pair=([^&]+)/;
/** A short code as typed: 8 letters and digits, maybe split by a dash or space. */
const CODE = /^[A-Za-z0-9]{4}[\s-]?[A-Za-z0-9]{4}$/;

/** The pairing ticket in the address (`#pair=…`), taken out of the address bar at once. */
export function takePairTicket(): string | undefined {
  const match = FRAGMENT.exec(location.hash);
  if (!match?.[1]) return undefined;
  history.replaceState(history.state, "", location.pathname + location.search);
  return decodeURIComponent(match[1]);
}

/** Whether `input` (from the token screen) is a pairing code. */
export function isPairCode(input: string): boolean {
  return CODE.test(input.trim());
}

/** Why a pairing was refused: the bridge's code (`pairing_used`, …) or `unreachable`. */
export class PairRefused extends Error {
  readonly code: string;

  constructor(code: string, message: string) {
    super(message);
    this.name = "PairRefused";
    this.code = code;
  }
}

/** Redeems `ticket` (or a short code) once: the device's credential and its session. */
export async function redeemPairing(
  ticket: string,
): Promise<{ readonly credential: string; readonly session: string }> {
  let response: Response;
  try {
    response = await fetch("/api/pair", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ticket }),
    });
  } catch (error) {
    throw new PairRefused("unreachable", error instanceof Error ? error.message : String(error));
  }
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok || typeof body.credential !== "string" || typeof body.session !== "string") {
    throw new PairRefused(String(body.code ?? response.status), String(body.error ?? ""));
  }
  return { credential: body.credential, session: body.session };
}

/** Mints pairing tickets for session `name` with `token`, as links to this page. */
export function pairingMinter(token: string, name: string): PairingMinter {
  return async () => {
    const response = await fetch(`/api/sessions/${encodeURIComponent(name)}/pair`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
    });
    const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    if (!response.ok) throw new Error(String(body.error ?? `HTTP ${response.status}`));
    const url = new URL(location.pathname, location.origin);
    url.searchParams.set("session", name);
    url.hash = `pair=${encodeURIComponent(String(body.ticket))}`;
    return {
      url: url.href,
      code: String(body.code),
      expiresAt: Number(body.expiresAt),
      readOnly: body.readOnly === true,
    };
  };
}

/**
 * The page's side of pairing: the link it was opened with (redeemed once, on start), the
 * screen while it redeems or when it was refused, and the dialog the header's button opens.
 */
export class PairingFlow {
  readonly #host: ReactiveControllerHost;
  #ticket: string | undefined;
  /** Redeeming (`{}`), refused, or `undefined` when this page is not pairing. */
  #state: { readonly refused?: PairRefused } | undefined;
  /** The open dialog's minter (one per opening, so `<pi-pair>` mints once). */
  #mint: PairingMinter | undefined;

  constructor(host: ReactiveControllerHost) {
    this.#host = host;
    this.#ticket = takePairTicket();
    this.#state = this.#ticket === undefined ? undefined : {};
  }

  /** Whether the pairing screen stands in for the page. */
  get shown(): boolean {
    return this.#state !== undefined;
  }

  /** Redeems the link the page was opened with, once: the credential, else `undefined`. */
  fromAddress(): Promise<string | undefined> {
    const ticket = this.#ticket;
    this.#ticket = undefined;
    return ticket === undefined ? Promise.resolve(undefined) : this.redeem(ticket);
  }

  /**
   * Redeems a link's ticket or a typed code: puts its session in the address and returns the
   * device's credential; when refused, the pairing screen says why and it returns `undefined`.
   */
  async redeem(ticket: string): Promise<string | undefined> {
    this.#set({});
    try {
      const { credential, session } = await redeemPairing(ticket);
      const url = new URL(location.href);
      url.searchParams.set("session", session);
      history.replaceState(null, "", url);
      this.#set(undefined);
      return credential;
    } catch (error) {
      if (!(error instanceof PairRefused)) throw error;
      this.#set({ refused: error });
      return undefined;
    }
  }

  /** The header's button: opens the dialog for session `name` with `token`. */
  button(t: DemoStrings, token: string | undefined, name: string | undefined): unknown {
    if (token === undefined || name === undefined) return nothing;
    const open = () => {
      this.#mint = pairingMinter(token, name);
      this.#host.requestUpdate();
    };
    return html`<button class="icon-button" aria-label=${t.pairOpen} title=${t.pairOpen} @click=${open}>${icons.phone}</button>`;
  }

  /** The pairing dialog, while open: `<pi-pair>` loads with it. */
  dialog(lang: string, t: DemoStrings): unknown {
    if (this.#mint === undefined) return nothing;
    void import("@pi-kit/elements/pair");
    // A ref runs before lit puts a new template in the document: open it once it is there.
    const shown = (dialog: Element | undefined) =>
      queueMicrotask(() => {
        if (dialog instanceof HTMLDialogElement && dialog.isConnected && !dialog.open)
          dialog.showModal();
      });
    const closed = () => {
      this.#mint = undefined;
      this.#host.requestUpdate();
    };
    return html`<dialog class="pair-dialog" aria-label=${t.pairOpen} ${ref(shown)} @close=${closed}>
      <pi-pair lang=${lang} .mint=${this.#mint}></pi-pair>
      <form method="dialog"><button class="text-button">${t.pairClose}</button></form>
    </dialog>`;
  }

  /** The screen while redeeming or after a refusal. */
  screen(t: DemoStrings): unknown {
    return pairScreen(this.#state ?? {}, t);
  }

  #set(state: { readonly refused?: PairRefused } | undefined): void {
    this.#state = state;
    this.#host.requestUpdate();
  }
}

/** The page a phone sees while it redeems its link, or when the link was refused. */
function pairScreen(state: { readonly refused?: PairRefused }, t: DemoStrings): unknown {
  const refused = state.refused;
  const reason =
    refused === undefined
      ? t.pairJoining
      : refused.code === "pairing_used"
        ? t.pairUsed
        : refused.code === "pairing_expired"
          ? t.pairExpired
          : refused.code === "pairing_unknown"
            ? t.pairUnknown
            : format(t.pairFailed, { reason: refused.message || refused.code });
  return html`<main class="token-screen">
    <div class="card" role=${refused === undefined ? "status" : "alert"}>
      <span class="logo large" aria-hidden="true">π</span>
      <h1>${refused === undefined ? t.pairOpen : t.pairRefusedTitle}</h1>
      <p class="pair-reason">${reason}</p>
    </div>
  </main>`;
}

/** The pairing dialog's styles, in the shell's. */
export const pairStyles = css`
  .pair-dialog {
    padding: 1.5rem;
    border: 1px solid var(--_color-border);
    border-radius: calc(var(--_radius) * 1.5);
    background: var(--_color-bg);
    color: var(--_color-fg);
    max-width: min(26rem, calc(100vw - 2rem));
  }
  .pair-dialog::backdrop {
    background: color-mix(in srgb, #000 45%, transparent);
  }
  .pair-dialog form {
    display: flex;
    justify-content: center;
    margin-top: 0.75rem;
  }
  .pair-dialog .text-button {
    min-height: 2.75rem;
  }
`;
