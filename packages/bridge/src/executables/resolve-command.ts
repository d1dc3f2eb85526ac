/**
 * Where a command's executable is, as `execvp` would find it: the path itself when it has a
 * slash, else the first executable file of that name on `PATH`.
 */
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join, resolve } from "node:path";

/** Where to look: the working directory for relative paths, and the `PATH` to search. */
export interface CommandLookup {
  readonly cwd: string;
  readonly path: string | undefined;
}

/** The executable file `command` runs, or `undefined` when there is none. */
export function resolveCommand(command: string, lookup: CommandLookup): string | undefined {
  if (command.includes("/")) {
    const file = resolve(lookup.cwd, command);
    return isExecutable(file) ? file : undefined;
  }
  for (const dir of (lookup.path ?? "").split(delimiter)) {
    if (dir === "") continue;
    const file = resolve(lookup.cwd, join(dir, command));
    if (isExecutable(file)) return file;
  }
  return undefined;
}

/** Whether `path` is a regular file this process may execute. */
function isExecutable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
