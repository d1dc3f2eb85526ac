/**
 * List-valued HTTP headers (`Sec-WebSocket-Protocol`, `Upgrade`, `Connection`) as RFC 9110 §5.6.1
 * writes them: elements separated by commas with optional spaces or tabs, empty elements allowed.
 * `ws` sends `a,b`, browsers `a, b`; every runtime must read both the same way.
 */

/** The elements of a list-valued header, in order, without empty ones; `[]` when it is absent. */
export function headerList(headers: Headers, name: string): string[] {
  // Headers.get joins repeated fields with ", ", which is itself a list.
  const value = headers.get(name);
  if (value === null) return [];
  return value
    .split(",")
    .map((element) => element.replace(/^[ \t]+|[ \t]+$/g, ""))
    .filter((element) => element.length > 0);
}

/** The same list as runtimes that split on `", "` alone (Deno's upgrade) read it: one spelling. */
export function canonicalList(elements: readonly string[]): string {
  return [...new Set(elements)].join(", ");
}

/** True when `Upgrade` names `websocket` (case-insensitively), alone or in a list. */
export function upgradesToWebSocket(headers: Headers): boolean {
  return headerList(headers, "upgrade").some((element) => element.toLowerCase() === "websocket");
}
