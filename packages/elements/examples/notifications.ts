import { createReplayTransport, PiClient } from "@pi-kit/client";
import { RunNotifier } from "@pi-kit/elements";

// `<pi-chat notify>` does all of this by itself; a page with its own UI uses the notifier.
const recording = await (await fetch(new URL("./hello.jsonl", import.meta.url))).text();
const client = new PiClient(createReplayTransport(recording, { waitForWrites: false }), {
  capabilities: "1",
});
const notifier = new RunNotifier(client);

// Browsers only ask for the permission from a click.
const button = document.createElement("button");
button.textContent = "Notify me";
button.addEventListener("click", () => void RunNotifier.requestPermission());
document.body.append(button);

// If this tab is hidden when the recorded run ends, the title reads "(1) …" until it is shown.
await client.closed;
notifier.dispose();
