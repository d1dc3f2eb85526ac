/**
 * Where the bridge token comes from: a file read for each connection (so a rotated token is
 * picked up), or a command whose output is a fresh ticket each time.
 */
import { exec } from "node:child_process";
import { readFile } from "node:fs/promises";

/** A token function reading `path` (trimmed) each time; rejects naming the file when it cannot. */
export function tokenFromFile(path: string): () => Promise<string> {
  return async () => {
    const token = (await readFile(path, "utf8")).trim();
    if (token === "") throw new Error(`the token file ${path} is empty`);
    return token;
  };
}

/** A token function running `command` in a shell each time; its trimmed stdout is the ticket. */
export function ticketFromCommand(command: string): () => Promise<string> {
  return () =>
    new Promise((resolve, reject) => {
      exec(command, { timeout: 30_000 }, (error, stdout, stderr) => {
        if (error !== null) {
          reject(new Error(`the ticket command failed: ${stderr.trim() || error.message}`));
          return;
        }
        const ticket = stdout.trim();
        if (ticket === "") reject(new Error("the ticket command printed nothing"));
        else resolve(ticket);
      });
    });
}
