/**
 * The `pi-kit-acp` command line: a bridge (`--url` with `--token-file` or `--ticket-command`) or,
 * without `--url`, the local pi command after `--`.
 */
import { parseArgs } from "node:util";

/** What the command line asks for. */
export type CliConfig =
  | { readonly mode: "help" }
  | { readonly mode: "version" }
  | {
      readonly mode: "bridge";
      readonly url: string;
      readonly tokenFile: string | undefined;
      readonly ticketCommand: string | undefined;
      readonly label: string | undefined;
    }
  | {
      readonly mode: "local";
      readonly command: string | undefined;
      readonly args: readonly string[];
    };

/** The usage text. */
export const USAGE = `Usage:
  pi-kit-acp --url <bridge-url> [--token-file <file> | --ticket-command <command>] [--label <name>]
  pi-kit-acp [-- <pi command> <args...>]

An Agent Client Protocol agent on stdin/stdout. With --url it drives sessions on a pi-kit bridge
(sent the token in <file>, or the ticket <command> prints, fresh for each connection); without it,
a local pi (default: pi --mode rpc) in the editor's working directory.`;

/** Parses `argv` (without node and the script); throws a `TypeError` naming what is wrong. */
export function parseCliArgs(argv: readonly string[]): CliConfig {
  const dashes = argv.indexOf("--");
  const own = dashes === -1 ? argv : argv.slice(0, dashes);
  const rest = dashes === -1 ? [] : argv.slice(dashes + 1);
  const { values } = parseArgs({
    args: [...own],
    options: {
      url: { type: "string" },
      "token-file": { type: "string" },
      "ticket-command": { type: "string" },
      label: { type: "string" },
      help: { type: "boolean", short: "h" },
      version: { type: "boolean" },
    },
    strict: true,
  });
  if (values.help === true) return { mode: "help" };
  if (values.version === true) return { mode: "version" };
  if (values.url === undefined) {
    if (values["token-file"] !== undefined || values["ticket-command"] !== undefined) {
      throw new TypeError(
        "--token-file and --ticket-command need --url (the bridge to send them to)",
      );
    }
    return { mode: "local", command: rest[0], args: rest.slice(1) };
  }
  if (rest.length > 0)
    throw new TypeError("a pi command after -- is for a local pi, not with --url");
  if (!/^(https?|wss?):\/\//.test(values.url)) {
    throw new TypeError(`--url ${values.url} is not an http(s) or ws(s) URL`);
  }
  if (values["token-file"] !== undefined && values["ticket-command"] !== undefined) {
    throw new TypeError("give --token-file or --ticket-command, not both");
  }
  return {
    mode: "bridge",
    url: values.url.replace(/^ws/, "http"),
    tokenFile: values["token-file"],
    ticketCommand: values["ticket-command"],
    label: values.label,
  };
}
