import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import {
  modelsJson,
  PI_RELEASES,
  piCommand,
  resolveNode20,
  resolveNode22,
  resolvePi,
  sessionHostOptions,
  settingsJson,
} from "../../src/index.ts";

describe("agent dir", () => {
  test("models.json points the pikit provider at the server", () => {
    const json = modelsJson("http://127.0.0.1:1/v1") as {
      providers: Record<
        string,
        { baseUrl: string; api: string; models: { id: string; reasoning: boolean }[] }
      >;
    };
    const provider = json.providers.pikit;
    assert.ok(provider);
    assert.equal(provider.api, "openai-completions");
    assert.equal(provider.baseUrl, "http://127.0.0.1:1/v1");
    assert.deepEqual(
      provider.models.map((m) => [m.id, m.reasoning]),
      [
        ["scripted", false],
        ["scripted-reasoning", true],
      ],
    );
  });

  test("settings.json keeps retries fast", () => {
    const settings = settingsJson() as {
      retry: { baseDelayMs: number; provider: { maxRetries: number } };
    };
    assert.ok(settings.retry.baseDelayMs <= 100);
    assert.equal(settings.retry.provider.maxRetries, 0);
  });
});

describe("session host options", () => {
  test("drop --no-session and put the sessions inside the command's temp root", () => {
    const pi = piCommand({ version: "1", baseUrl: "http://127.0.0.1:1/v1" });
    try {
      const host = sessionHostOptions(pi);
      assert.ok(pi.args.includes("--no-session"));
      assert.deepEqual(
        host.pi.args,
        pi.args.filter((arg) => arg !== "--no-session"),
      );
      assert.ok(host.pi.args.includes("--mode"));
      assert.deepEqual([host.pi.command, host.pi.cwd, host.pi.env], [pi.command, pi.cwd, pi.env]);
      assert.equal(host.sessionsDir, `${pi.tempRoot}/sessions`);
    } finally {
      pi.dispose();
    }
  });
});

describe("the pi releases of the matrix", () => {
  test("each release resolves to its installed pi, and runs on the Node it needs", () => {
    const expected = {
      "1": /^1\.\d+\.\d+$/,
      "1.0": /^1\.0\.3$/,
      "0.87": /^0\.87\.1$/,
      "0.73": /^0\.73\.1$/,
    };
    for (const [version, pattern] of Object.entries(expected)) {
      const release = version as keyof typeof PI_RELEASES;
      assert.match(resolvePi(release).version, pattern, version);
      const pi = piCommand({ version: release, baseUrl: "http://127.0.0.1:1/v1" });
      try {
        assert.equal(pi.piVersion, resolvePi(release).version);
        const node = PI_RELEASES[release].node === 22 ? resolveNode22() : resolveNode20();
        assert.equal(pi.command, node, version);
      } finally {
        pi.dispose();
      }
    }
  });

  test("the Node 22 releases come from their own lockfiles in pi-releases/, not the workspace", () => {
    // The root `npm ci` runs on Node 20 and stays free of EBADENGINE warnings because pi 1.x is
    // installed apart, on first use (src/launcher/pinned-pi.ts).
    const pinned = fileURLToPath(new URL("../../pi-releases/", import.meta.url));
    for (const version of ["1", "1.0", "0.87"] as const) {
      const { root } = resolvePi(version);
      assert.equal(
        root,
        join(pinned, `pi-${version}`, "node_modules", PI_RELEASES[version].installedAs),
      );
      assert.equal(
        readFileSync(join(pinned, `pi-${version}`, "node_modules", ".pi-kit-lock-hash"), "utf8")
          .length,
        16,
      );
    }
  });
});
