import { serveBridge } from "@pi-kit/bridge/node";
import { type ControlState, PiClient, type PiClientError } from "@pi-kit/client";
import { createNodeWebSocketTransport } from "@pi-kit/client/ws-node";
import { piCommand, sessionHostOptions, startModelServer } from "@pi-kit/testing";

const model = await startModelServer();
const pi = piCommand({ version: "1", baseUrl: model.baseUrl });
const served = await serveBridge({ ...sessionHostOptions(pi), port: 0, logger: () => {} });
const url = `${served.url.replace(/^http/, "ws")}/sessions/main/ws`;
const seen = (control: ControlState | undefined): string =>
  `${control?.controller?.label ?? "nobody"} in control, ${control?.viewers} viewers`;

// Two viewers of one session: the first to attach controls it, the second watches.
const desk = await createNodeWebSocketTransport({ url, token: served.token, label: "Desk" });
const deskClient = await PiClient.connect(desk);
const phone = await createNodeWebSocketTransport({ url, token: served.token, label: "Phone" });
const phoneClient = await PiClient.connect(phone);
try {
  console.log(`phone sees: ${seen(phone.control)}`);
  const refused = await phoneClient.prompt("Hi").catch((error: PiClientError) => error.code);
  console.log(`phone prompt: ${refused}`);

  await phone.takeControl(); // the desk watches from now on
  const { disposition } = await phoneClient.promptAndWait("Hi from the phone");
  console.log(`phone prompt: ${disposition}; desk sees: ${seen(desk.control)}`);
} finally {
  await deskClient.close();
  await phoneClient.close();
  await served.close();
  await model.close();
  pi.dispose();
}
