/**
 * One path segment of a `.gitignore` pattern matched as git's wildmatch does (`*`, `?`, `[…]` with
 * ranges, negation and POSIX classes, `\` escapes); `**` is the caller's business.
 */
/** The POSIX classes git's wildmatch knows, as regular-expression class contents. */
const POSIX_CLASSES: Readonly<Record<string, string>> = {
  alnum: "a-zA-Z0-9",
  alpha: "a-zA-Z",
  blank: " \\t",
  cntrl: "\\x00-\\x1f\\x7f",
  digit: "0-9",
  graph: "\\x21-\\x7e",
  lower: "a-z",
  print: "\\x20-\\x7e",
  punct: "!-\\/:-@\\[-`{-~",
  space: " \\t\\n\\r\\f\\v",
  upper: "A-Z",
  xdigit: "0-9A-Fa-f",
};

/** Whether one `/`-free glob segment (`*`, `?`, `[…]`, `\` escapes) matches `name` whole. */
export function segmentMatches(glob: string, name: string): boolean {
  let source = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === "\\" && i + 1 < glob.length) source += escapeRegExp(glob[++i] as string);
    else if (c === "*") source += "[^/]*";
    else if (c === "?") source += "[^/]";
    else if (c === "[") {
      const end = bracketEnd(glob, i);
      if (end === -1) {
        source += "\\[";
        continue;
      }
      let body = glob.slice(i + 1, end);
      const negated = body.startsWith("!") || body.startsWith("^");
      if (negated) body = body.slice(1);
      let cls = "";
      for (let j = 0; j < body.length; j++) {
        const posix = /^\[:([a-z]+):\]/.exec(body.slice(j));
        if (posix !== null) {
          cls += POSIX_CLASSES[posix[1] as string] ?? "";
          j += posix[0].length - 1;
        } else if (body[j] === "\\" && j + 1 < body.length) cls += `\\${body[++j]}`;
        else if (body[j] === "-" && j > 0 && j < body.length - 1) cls += "-";
        else cls += escapeRegExp(body[j] as string);
      }
      source += `[${negated ? "^" : ""}${cls}]`;
      i = end;
    } else source += escapeRegExp(c);
  }
  try {
    return new RegExp(`^${source}$`, "s").test(name);
  } catch {
    return false;
  }
}

/** Where the bracket expression opened at `start` closes (`]` first inside is literal), or -1. */
function bracketEnd(glob: string, start: number): number {
  let i = start + 1;
  if (glob[i] === "!" || glob[i] === "^") i++;
  if (glob[i] === "]") i++;
  for (; i < glob.length; i++) {
    if (glob[i] === "\\") i++;
    else if (glob.startsWith("[:", i)) {
      const close = glob.indexOf(":]", i + 2);
      if (close !== -1) i = close + 1;
    } else if (glob[i] === "]") return i;
  }
  return -1;
}

function escapeRegExp(c: string): string {
  return c.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
}
