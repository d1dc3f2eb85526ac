/**
 * The directive language: `[[name args]]` markers inside a prompt pick the scripted reply.
 * @module
 */

/** One `[[name args]]` marker found in a prompt. */
export interface Directive {
  /** Lower-cased directive name, e.g. `bash`. */
  readonly name: string;
  /** Everything after the name up to `]]`, trimmed; `""` when there is none. */
  readonly args: string;
}

// Lazy body so `[[text a]] [[text b]]` is two directives; `[\s\S]` lets arguments span lines.
const DIRECTIVE = /\[\[\s*([A-Za-z][\w-]*)(?:\s+([\s\S]*?))?\s*\]\]/g;

/** Finds every directive in `text`, in order. */
export function parseDirectives(text: string): Directive[] {
  const found: Directive[] = [];
  for (const match of text.matchAll(DIRECTIVE)) {
    found.push({ name: (match[1] as string).toLowerCase(), args: (match[2] ?? "").trim() });
  }
  return found;
}

/**
 * Expands the escapes `\n`, `\r`, `\t` and `\\` in a directive argument, so one-line prompts
 * can carry multi-line file content.
 */
export function unescapeArgument(text: string): string {
  return text.replace(/\\([nrt\\])/g, (_, c: string) =>
    c === "n" ? "\n" : c === "r" ? "\r" : c === "t" ? "\t" : "\\",
  );
}
