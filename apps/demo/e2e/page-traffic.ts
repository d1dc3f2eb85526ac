/**
 * What a page sent and received over its WebSockets, and its console, kept so that a wait that
 * times out can say what happened (pi refused a command? the client dropped a request?).
 */
import type { Locator, Page } from "playwright-core";

const traffic = new WeakMap<Page, string[]>();
// Enough to show why a wait timed out; a CI log keeps only the first 40 lines of each failure.
const LINES = 30;

/** Keeps the last records `page` sends and receives, and its console messages. */
export function recordTraffic(page: Page): void {
  const lines: string[] = [];
  traffic.set(page, lines);
  const note = (line: string): void => {
    lines.push(`${new Date().toISOString().slice(11, 23)} ${line.slice(0, 300)}`);
    if (lines.length > LINES) lines.shift();
  };
  page.on("console", (message) => note(`console.${message.type()}: ${message.text()}`));
  page.on("websocket", (socket) => {
    note(`socket ${socket.url().replace(/[?#].*/, "")}`);
    socket.on("framesent", (frame) => note(`> ${String(frame.payload)}`));
    socket.on("framereceived", (frame) => note(`< ${String(frame.payload)}`));
    socket.on("close", () => note("socket closed"));
  });
}

/** Waits until `page` shows an extension dialog; on timeout the error carries its last records. */
export async function dialogShown(page: Page): Promise<Locator> {
  const dialog = page.getByRole("alertdialog");
  try {
    await dialog.waitFor();
  } catch (error) {
    const lines = traffic.get(page) ?? ["(not recorded)"];
    throw new Error(`${(error as Error).message}\nthe page's last records:\n${lines.join("\n")}`);
  }
  return dialog;
}
