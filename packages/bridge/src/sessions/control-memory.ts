/**
 * Which viewer controlled a session, kept on disk so a restarted bridge (or a pi started again
 * after it exited) gives control back to that viewer when it reconnects. A viewer is known by the
 * key its client presents (`?viewer=`); only a hash of the key and the principal is kept, in
 * `<sessions-dir>/.control/<session key>`, beside the sessions and outside every pi's view, as the
 * checkpoints are.
 */
import { createHash } from "node:crypto";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { SessionKey } from "../principals/owner.ts";

/** What a client may present as its viewer key: 16 to 128 characters of A–Z a–z 0–9 _ -. */
export const VIEWER_KEY = /^[A-Za-z0-9_-]{16,128}$/;

/** The rule {@link VIEWER_KEY} enforces, as a refusal says it. */
export const VIEWER_KEY_RULE = "viewer must be 16-128 characters of A-Z a-z 0-9 _ -";

/**
 * The identity a viewer key stands for: bound to the principal (`owner`), so a key is worth
 * nothing to anyone else, and hashed, so the file never holds a key a client could present.
 */
export function viewerIdentity(owner: string, key: string): string {
  return createHash("sha256").update(`${owner}\n${key}`).digest("base64url");
}

/** The remembered controller of one session. */
export class ControlMemory {
  readonly #file: string;
  /** Writes in order: a later one never lands before an earlier one. */
  #writing: Promise<void> = Promise.resolve();
  #stopped = false;

  constructor(sessionsDir: string, key: SessionKey) {
    this.#file = join(sessionsDir, ".control", key);
  }

  /** The identity that controlled the session when the bridge last wrote, if any. */
  async recall(): Promise<string | undefined> {
    const text = await readFile(this.#file, "utf8").catch(() => "");
    const identity = text.trim();
    return identity === "" ? undefined : identity;
  }

  /** Keeps `identity` as the controller's (`undefined`: nobody's, or a viewer without a key). */
  remember(identity: string | undefined): void {
    if (this.#stopped) return;
    const file = this.#file;
    this.#writing = this.#writing
      .then(async () => {
        if (identity === undefined) return rm(file, { force: true });
        await mkdir(dirname(file), { recursive: true, mode: 0o700 });
        await writeFile(file, `${identity}\n`, { mode: 0o600 });
      })
      .catch(() => {
        // Unwritable: a restart then gives control to the first viewer back, as without it.
      });
  }

  /** Forgets the controller (the session is deleted); resolves once that has landed. */
  forget(): Promise<void> {
    this.remember(undefined);
    return this.settled();
  }

  /** Resolves once every write asked for so far has landed (or failed). */
  settled(): Promise<void> {
    return this.#writing;
  }

  /** Writes nothing more (the session was fenced: its files are another node's now). */
  stop(): void {
    this.#stopped = true;
  }
}
