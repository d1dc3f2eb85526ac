import {
  Component,
  CUSTOM_ELEMENTS_SCHEMA,
  computed,
  DestroyRef,
  inject,
  signal,
} from "@angular/core";
import { createWebSocketTransport, PiClient, type SessionSnapshot } from "@pi-kit/client";
import type { PiErrorEvent } from "@pi-kit/elements";

@Component({
  selector: "app-root",
  schemas: [CUSTOM_ELEMENTS_SCHEMA],
  template: `
    <pi-chat
      [client]="client()"
      style="--pi-color-accent: #0b7a5c"
      (pi-send)="sent.set(sent() + 1)"
      (pi-error)="failure.set($any($event).error)"
    >
      <strong slot="header">Angular · {{ sent() }} sent · {{ shown() }} messages</strong>
      <p slot="empty">{{ failure() ?? "Ask pi anything." }}</p>
    </pi-chat>
  `,
})
export class App {
  readonly client = signal<PiClient | undefined>(undefined);
  readonly session = signal<SessionSnapshot | undefined>(undefined);
  readonly sent = signal(0);
  // Counted as the chat shows them: the questions and answers, not pi's internal notices.
  readonly shown = computed(
    () =>
      this.session()?.messages.filter((m) => m.role === "user" || m.role === "assistant").length ??
      0,
  );
  readonly failure = signal<PiErrorEvent["error"]>(undefined);

  constructor() {
    // The bridge token travels in the page URL's fragment (#token=…), never to a server.
    const token = new URLSearchParams(location.hash.slice(1)).get("token") ?? undefined;
    const connecting = PiClient.connect(
      createWebSocketTransport({ url: "/sessions/angular/ws", token }),
    );
    connecting.then(
      (client) => {
        this.client.set(client);
        this.session.set(client.session.getSnapshot());
        client.session.subscribe(() => this.session.set(client.session.getSnapshot()));
      },
      // No bridge to connect to: say what serves this page with one.
      (error: unknown) =>
        this.failure.set(
          `${error}. Start this example with \`npm start -w @pi-kit/example-angular\`; open the URL it prints.`,
        ),
    );
    inject(DestroyRef).onDestroy(() => void connecting.then((client) => client.close()));
  }
}
