/**
 * First come, first served ownership of a client-wide role (answering its dialogs, showing its
 * notifications), so two elements serving one client never both answer a dialog or both show a
 * toast. Later claimants wait in line and are granted the role, in order, when the owner lets go.
 */
type Grant = () => void;

interface Claimant {
  readonly owner: object;
  readonly grant: Grant;
}

// Per client, per role, the claimants in order; the first one owns the role. Weak, so a dropped
// client takes its lines with it.
const lines = new WeakMap<object, Map<string, Claimant[]>>();

function lineOf(client: object, role: string): Claimant[] {
  let roles = lines.get(client);
  if (roles === undefined) {
    roles = new Map();
    lines.set(client, roles);
  }
  let line = roles.get(role);
  if (line === undefined) {
    line = [];
    roles.set(role, line);
  }
  return line;
}

/**
 * Claims `role` of `client` for `owner`. Returns true when `owner` holds it now; otherwise `grant`
 * runs later, when every earlier claimant has released it.
 */
export function claim(role: string, client: object, owner: object, grant: Grant): boolean {
  const line = lineOf(client, role);
  const index = line.findIndex((c) => c.owner === owner);
  if (index >= 0) return index === 0;
  line.push({ owner, grant });
  return line.length === 1;
}

/** Gives up (or stops waiting for) `role` of `client`; the next claimant in line is granted it. */
export function release(role: string, client: object, owner: object): void {
  const line = lineOf(client, role);
  const index = line.findIndex((c) => c.owner === owner);
  if (index < 0) return;
  line.splice(index, 1);
  if (index === 0) line[0]?.grant();
}
