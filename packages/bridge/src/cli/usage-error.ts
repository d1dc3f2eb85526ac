/** A mistake on the command line; its message is the one line the CLI prints. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** A value from the command line, quoted and cut short, for an error message. */
export function quote(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}
