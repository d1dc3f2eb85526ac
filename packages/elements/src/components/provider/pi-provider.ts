import { ContextProvider } from "@lit/context";
import type { PiClient, SessionModel } from "@pi-kit/client";
import { css, html, LitElement } from "lit";
import { connectionOf, piConnectionContext } from "../../internal/context.ts";

/**
 * Provides a client (or a bare session model) to every pi element inside it, through
 * `@lit/context`, so they need no property wiring. Renders its children unchanged.
 *
 * @tagname pi-provider
 * @summary Provides a pi client to nested elements.
 * @slot - The elements that use the client.
 */
export class PiProvider extends LitElement {
  static override styles = css`
    :host {
      display: contents;
    }
  `;
  static override properties = {
    client: { attribute: false },
    session: { attribute: false },
  };

  /** The client to provide. */
  declare client: PiClient | undefined;
  /** A session model to provide when there is no client. */
  declare session: SessionModel | undefined;

  readonly #provider = new ContextProvider(this, { context: piConnectionContext });

  protected override willUpdate(): void {
    this.#provider.setValue(connectionOf(this.client, this.session));
  }

  protected override render(): unknown {
    return html`<slot></slot>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    "pi-provider": PiProvider;
  }
}
