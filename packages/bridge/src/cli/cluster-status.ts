/**
 * `pi-kit-bridge cluster status`: the sessions leased in a cluster, as any node's
 * `GET /cluster/sessions` lists them, printed as a table an operator reads when a session is
 * stuck (who owns it, its fence, how long it has been held and how long its lease has left).
 */
import { resolve } from "node:path";
import type { ClusterStatus } from "../cluster/cluster-node.ts";
import { TOKEN_ENV } from "./parse-args.ts";
import { readSecretFile } from "./read-files.ts";
import { UsageError } from "./usage-error.ts";

/** What `cluster status` was asked for. */
export interface ClusterStatusArgs {
  /** The node to ask (any node of the cluster). */
  readonly url: string;
  /** The bridge's static token. */
  readonly token: string;
  /** Print the route's JSON as it is instead of a table. */
  readonly json: boolean;
  /** Risky but valid choices, to print as warnings. */
  readonly warnings: readonly string[];
}

/** Parses the arguments after `cluster status`; throws a {@link UsageError} for a mistake. */
export function parseClusterStatusArgs(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): ClusterStatusArgs {
  let url = "http://127.0.0.1:8787";
  let token: string | undefined;
  let json = false;
  const warnings: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i] as string;
    const value = (): string => {
      const next = argv[++i];
      if (next === undefined) throw new UsageError(`${flag} needs a value`);
      return next;
    };
    if (flag === "--url") url = value();
    else if (flag === "--token") token = value();
    else if (flag === "--token-file") token = readSecretFile(resolve(value()), "token", warnings);
    else if (flag === "--json") json = true;
    else throw new UsageError(`cluster status: unknown option ${JSON.stringify(flag)}`);
  }
  if (!/^https?:\/\/[^/]/.test(url))
    throw new UsageError(
      `--url needs the http:// or https:// URL of a node, got ${JSON.stringify(url)}`,
    );
  token ??= env[TOKEN_ENV] || undefined;
  if (token === undefined)
    throw new UsageError(`cluster status needs the bridge's token: --token-file or $${TOKEN_ENV}`);
  return { url: url.replace(/\/+$/, ""), token, json, warnings };
}

/** `status` as a table: one line per session, sorted by session, then the node that answered. */
export function formatClusterStatus(status: ClusterStatus): string {
  const rows = [...status.sessions]
    .sort((a, b) => a.session.localeCompare(b.session))
    .map((s) => [
      s.session,
      s.node,
      String(s.fence),
      s.ageMs === undefined ? "-" : duration(s.ageMs),
      duration(s.expiresInMs),
      s.file ?? "-",
    ]);
  const header = ["SESSION", "OWNER", "FENCE", "LEASE AGE", "EXPIRES IN", "FILE"];
  const widths = header.map((h, i) =>
    Math.max(h.length, ...rows.map((r) => (r[i] as string).length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i] as number)))
      .join("  ");
  const count = `${status.sessions.length} session${status.sessions.length === 1 ? "" : "s"} leased`;
  return [
    line(header),
    ...rows.map(line),
    `${count} (asked ${status.node}; lease TTL ${duration(status.leaseTtlMs)})`,
  ].join("\n");
}

/** `ms` for a person: `850 ms`, `4.2 s`, `7 min 3 s`, `2 h 5 min`. */
function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.floor(ms / 1000);
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

/** Asks the node and answers what to print, or throws an `Error` saying why it could not. */
export async function clusterStatus(
  args: ClusterStatusArgs,
  fetchImpl: typeof fetch = fetch,
): Promise<string> {
  const url = `${args.url}/cluster/sessions`;
  let response: Response;
  try {
    response = await fetchImpl(url, {
      headers: { authorization: `Bearer ${args.token}` },
      signal: AbortSignal.timeout(10_000),
    });
  } catch (error) {
    throw new Error(`cannot reach ${url}: ${(error as Error).message}`);
  }
  if (!response.ok) {
    const body = await response.text().catch(() => "");
    const message = /"message":\s*"([^"]*)"/.exec(body)?.[1] ?? response.statusText;
    throw new Error(`${url} answered ${response.status}: ${message}`);
  }
  const status = (await response.json()) as ClusterStatus;
  return args.json ? JSON.stringify(status, null, 2) : formatClusterStatus(status);
}
