/**
 * What the other viewers of a session call this page ("Watching — Chrome on Linux is in
 * control"): its browser and system, read from the user agent. A rough name is enough here, so a
 * few patterns do rather than a user-agent parsing library.
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
