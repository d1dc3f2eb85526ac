/**
 * What the other viewers of a session call this page ("Watching — Chrome on Linux · tab 2 is in
 * control"): its browser and system, read from the user agent, and the tab's number in this
 * browser, so two tabs of one browser are told apart. A rough name is enough here, so a few
 * patterns do rather than a user-agent parsing library.
 */

const BROWSERS: readonly (readonly [string, RegExp])[] = [
  ["Edge", /\bEdg\//],
  ["Firefox", /\bFirefox\//],
  ["Chrome", /Chrome\//],
  ["Safari", /\bSafari\//],
];

// Android and iOS before Linux and Mac, whose names their user agents also carry.
const SYSTEMS: readonly (readonly [string, RegExp])[] = [
  ["Android", /\bAndroid\b/],
  ["iPhone", /\biPhone\b/],
  ["iPad", /\biPad\b/],
  ["Windows", /\bWindows\b/],
  ["Mac", /\bMac OS X\b/],
  ["Linux", /\bLinux\b/],
];

/** "Chrome on Linux", "Safari on iPhone", …; "Browser" when nothing is recognised. */
export function viewerLabel(userAgent: string = navigator.userAgent): string {
  const browser = BROWSERS.find(([, pattern]) => pattern.test(userAgent))?.[0] ?? "Browser";
  const system = SYSTEMS.find(([, pattern]) => pattern.test(userAgent))?.[0];
  return system === undefined ? browser : `${browser} on ${system}`;
}

const TAB_KEY = "pi-kit-demo:tab";
const TABS_KEY = "pi-kit-demo:tabs";

/**
 * This tab's number in this browser: the next one when the tab first asks, kept for the tab's
 * life (a reload keeps it; `sessionStorage` is per tab, the counter in `localStorage` is shared).
 */
export function tabNumber(
  tab: Pick<Storage, "getItem" | "setItem"> = sessionStorage,
  shared: Pick<Storage, "getItem" | "setItem"> = localStorage,
): number {
  const own = Number(tab.getItem(TAB_KEY));
  if (Number.isInteger(own) && own > 0) return own;
  const next = (Number(shared.getItem(TABS_KEY)) || 0) + 1;
  shared.setItem(TABS_KEY, String(next));
  tab.setItem(TAB_KEY, String(next));
  return next;
}

const CLAIM_KEY = "pi-kit-demo:tab-claim";
let claimed: Promise<number> | undefined;

/**
 * This tab's number among the tabs of every browser on the demo server (`/demo-tab`), kept for
 * the tab's life with the key that proves it is this tab's; the browser's own count when the
 * server cannot be asked. Asked once per page load.
 */
export function claimTabNumber(): Promise<number> {
  claimed ??= (async () => {
    const kept = JSON.parse(sessionStorage.getItem(CLAIM_KEY) ?? "{}") as {
      key?: string;
      tab?: number;
    };
    const key = kept.key ?? crypto.randomUUID();
    try {
      const response = await fetch("/demo-tab", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ key, kept: kept.tab }),
      });
      if (!response.ok) throw new Error(`/demo-tab: HTTP ${response.status}`);
      const { tab } = (await response.json()) as { tab: number };
      sessionStorage.setItem(CLAIM_KEY, JSON.stringify({ key, tab }));
      return tab;
    } catch {
      return tabNumber();
    }
  })();
  return claimed;
}

/** The label this tab goes by: "Chrome on Linux · tab 2". */
export async function tabLabel(): Promise<string> {
  // A no-break space keeps "tab 2" together when the line wraps.
  return `${viewerLabel()} · tab\u00a0${await claimTabNumber()}`;
}

const VIEWER_KEY = "pi-kit-demo:viewer-key";

/**
 * This tab's viewer key for the bridge, kept for the tab's life: after a server restart (or a
 * reload) the bridge gives control back to the tab that had it. 128 random bits in hex.
 */
export function tabViewerKey(tab: Pick<Storage, "getItem" | "setItem"> = sessionStorage): string {
  const kept = tab.getItem(VIEWER_KEY);
  if (kept !== null && /^[0-9a-f]{32}$/.test(kept)) return kept;
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const key = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  tab.setItem(VIEWER_KEY, key);
  return key;
}
