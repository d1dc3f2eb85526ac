/**
 * The files the command line names (the token, a ticket secret, a ticket public key), read apart
 * from the parser so that it stays pure: tests give `parseFlags` files of their own.
 */
import { readFileSync, statSync } from "node:fs";
import process from "node:process";
import { UsageError } from "./usage-error.ts";

/** How the parser reads the files the command line names. */
export interface CliFiles {
  /** The first line of a secret's file; warns when others may read the file. */
  secret(path: string, what: string, warnings: string[]): string;
  /** The whole text of the ticket public key file. */
  publicKey(path: string): string;
}

/** The files on disk. */
export const diskFiles: CliFiles = { secret: readSecretFile, publicKey: readPublicKey };

/** The first line of a secret's file (`what`: "token"); warns when others may read the file. */
export function readSecretFile(path: string, what: string, warnings: string[]): string {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
    const mode = statSync(path).mode;
    if (process.platform !== "win32" && (mode & 0o077) !== 0)
      warnings.push(
        `The ${what} file ${path} can be read by other users: run \`chmod 600 ${path}\``,
      );
  } catch (error) {
    throw new UsageError(`Cannot read the ${what} file ${path}: ${(error as Error).message}`);
  }
  const secret = text.split(/\r?\n/, 1)[0]?.trim() ?? "";
  if (secret === "") throw new UsageError(`The ${what} file ${path} is empty`);
  return secret;
}

/** The ticket public key file's text (`createTicketVerifier` checks the key, before the start). */
export function readPublicKey(path: string): string {
  let pem: string;
  try {
    pem = readFileSync(path, "utf8");
  } catch (error) {
    throw new UsageError(
      `Cannot read the ticket public key file ${path}: ${(error as Error).message}`,
    );
  }
  return pem;
}
