import { createWebSocketTransport, PiClient } from "@pi-kit/client";
import { PiChat, usePiClient, usePiSession } from "@pi-kit/react";
import { type CSSProperties, useState } from "react";

// The bridge token travels in the page URL's fragment (#token=…), never to a server.
const token = new URLSearchParams(location.hash.slice(1)).get("token");
// Shown when there is no bridge to connect to: what serves this page with one.
const START =
  "Start this example with `npm start -w @pi-kit/example-react`; open the URL it prints.";

export function App() {
  const { client, error } = usePiClient((signal) =>
    PiClient.connect(
      createWebSocketTransport({ url: "/sessions/react/ws", signal, ...(token ? { token } : {}) }),
    ),
  );
  const session = usePiSession(client);
  const [sent, setSent] = useState(0);
  // Counted as the chat shows them: the questions and answers, not pi's internal notices.
  const shown =
    session?.messages.filter((m) => m.role === "user" || m.role === "assistant").length ?? 0;
  const [failure, setFailure] = useState<unknown>();
  return (
    <PiChat
      client={client}
      style={{ "--pi-color-accent": "#0b7a5c" } as CSSProperties}
      onPiSend={() => setSent((n) => n + 1)}
      onPiError={(e) => setFailure(e.error)}
    >
      <strong slot="header">
        React · {sent} sent · {shown} messages
      </strong>
      <p slot="empty">{String(failure ?? (error ? `${error}. ${START}` : "Ask pi anything."))}</p>
    </PiChat>
  );
}
