/**
 * What most cluster test files set up alike: a redis-server started before the file's tests and
 * stopped after them, and temporary folders removed after them.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before } from "node:test";
import { startRedis, type TestRedis } from "./redis-server.ts";

/** A file's redis-server and temporary folders. */
export interface RedisFixture {
  /** The running redis-server (from the first test on). */
  readonly redis: TestRedis;
  /** A new temporary folder named after `prefix` and `label`, removed after the file's tests. */
  tempDir(label: string): string;
}

/** Registers the file's `before` and `after` hooks; folders are named `{prefix}-{label}-…`. */
export function useRedis(prefix: string): RedisFixture {
  let redis: TestRedis | undefined;
  const temps: string[] = [];
  before(async () => {
    redis = await startRedis();
  });
  after(async () => {
    await redis?.stop();
    for (const dir of temps) rmSync(dir, { recursive: true, force: true });
  });
  return {
    get redis() {
      if (redis === undefined) throw new Error("redis-server starts before the first test");
      return redis;
    },
    tempDir(label) {
      const dir = mkdtempSync(join(tmpdir(), `${prefix}-${label}-`));
      temps.push(dir);
      return dir;
    },
  };
}
