/**
 * One bridge-to-be contending for a sessions directory, as its own process: prints `won` or
 * `lost <pid>` on stdout; a winner holds the lock until it is killed.
 */
import process from "node:process";
import { lockSessionsDir, SessionsDirInUseError } from "../src/placement/sessions-dir-lock.ts";

try {
  lockSessionsDir(process.argv[2] as string);
  console.log("won");
  setInterval(() => {}, 60_000);
} catch (error) {
  if (!(error instanceof SessionsDirInUseError)) throw error;
  console.log(`lost ${error.holder.pid}`);
}
