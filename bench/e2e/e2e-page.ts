/**
 * Page side of latency.bench.ts: a <pi-chat> connected over the WebSocket transport, and a probe
 * that reports when a token the benchmark names was first painted. Frames are tracked with a
 * requestAnimationFrame callback that runs first in every frame, a ResizeObserver that runs after
 * the frame's layout (so a change seen in between was made while the frame was rendered, and is
 * in its paint) and a message posted from the frame, handled once it has painted.
 */
import { createWebSocketTransport, PiClient } from "@pi-kit/client";
import "@pi-kit/elements/define";
import type { PiChat } from "@pi-kit/elements";
import { deepText } from "../bridge/page-text.ts";

const clock = (): number => performance.timeOrigin + performance.now();
const nextFrame = (): Promise<void> => new Promise((r) => requestAnimationFrame(() => r()));
type Report = (token: string, paintedAt: number) => void;

let chat: PiChat | undefined;
let client: PiClient | undefined;
/** The token being watched for, and the frame that paints it once it is in the DOM. */
let watched: { token: string; frame?: number } | undefined;

// Frame tracking: `frame` counts frames, `rendering` is true from the frame's first callback to
// the end of its layout.
let frame = 0;
let rendering = false;
const probe = document.createElement("div");
probe.style.cssText = "position:fixed;left:0;bottom:0;height:1px;width:1px;pointer-events:none";
document.body.append(probe);
new ResizeObserver(() => {
  rendering = false;
}).observe(probe);
const painted = new MessageChannel();
painted.port1.onmessage = (event: MessageEvent<number>) => afterPaint(event.data);
const tick = (): void => {
  requestAnimationFrame(tick);
  frame++;
  rendering = true;
  // A size change every frame, so the observer runs in every frame.
  probe.style.width = `${1 + (frame % 2)}px`;
  // A token already in the DOM when the frame starts is in its paint.
  if (watched !== undefined && watched.frame === undefined && shows(watched.token))
    watched.frame = frame;
  painted.port2.postMessage(frame);
};
requestAnimationFrame(tick);

/** True when the streaming message shows `token`. */
function shows(token: string): boolean {
  const message = chat?.shadowRoot?.querySelector("pi-message[streaming]");
  return message != null && deepText(message).includes(token);
}

const observer = new MutationObserver(() => {
  if (watched === undefined || watched.frame !== undefined) return;
  if (shows(watched.token)) watched.frame = rendering ? frame : frame + 1;
  // Elements the change created have shadow roots of their own to watch.
  else observeRoots();
});

/** Observes the roots the streaming message is in and those inside it. */
function observeRoots(): boolean {
  const message = chat?.shadowRoot?.querySelector("pi-message[streaming]");
  if (chat?.shadowRoot == null || message == null) return false;
  const options = { subtree: true, childList: true, characterData: true };
  observer.observe(chat.shadowRoot, options);
  const roots = (node: Element): void => {
    if (node.shadowRoot) {
      observer.observe(node.shadowRoot, options);
      for (const child of node.shadowRoot.querySelectorAll("*")) roots(child);
    }
  };
  roots(message);
  for (const child of message.querySelectorAll("*")) roots(child);
  return true;
}

function afterPaint(paintedFrame: number): void {
  if (watched?.frame === undefined || watched.frame > paintedFrame) return;
  const { token } = watched;
  watched = undefined;
  (window as unknown as { e2eReport: Report }).e2eReport(token, clock());
}

/** Connects a <pi-chat> to `url`; resolves with the messages shown, once `lastText` is painted. */
async function open(url: string, token: string, lastText: string): Promise<number> {
  await client?.close();
  document.body.replaceChildren(probe);
  client = await PiClient.connect(createWebSocketTransport({ url, token, reconnect: false }));
  chat = document.createElement("pi-chat");
  chat.style.cssText = "display:block;height:800px";
  chat.client = client;
  document.body.append(chat);
  while (!deepText(chat).includes(lastText)) await nextFrame();
  await nextFrame();
  return client.session.getSnapshot().messages.length;
}

/**
 * Watches for `token` in the streaming message: reported through `e2eReport` with the time the
 * frame that shows it was painted. The roots observed are those the streaming message is in.
 */
function watch(token: string): boolean {
  observer.disconnect();
  if (!observeRoots()) return false;
  watched = { token };
  return true;
}

/** The page's clock, to align it with the benchmark's. */
const now = clock;

Object.assign(window, { open, watch, now, benchReady: true });
