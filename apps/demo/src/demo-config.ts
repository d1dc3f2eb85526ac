/** What the demo server tells the page about itself (`/demo-config.json`, no token needed). */

/** The demo server's description of itself. */
export interface DemoConfig {
  /** Which model answers, in words. */
  readonly label: string;
  /** True when the embedded scripted model answers. */
  readonly scripted: boolean;
  /** A new value each time the server starts: a change means it restarted. */
  readonly instance: string;
}

/** Fetches the server's description. */
export async function loadDemoConfig(): Promise<DemoConfig> {
  const response = await fetch("/demo-config.json", { cache: "no-store" });
  if (!response.ok) throw new Error(`/demo-config.json: HTTP ${response.status}`);
  return (await response.json()) as DemoConfig;
}
