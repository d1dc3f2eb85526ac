/**
 * The README's editor snippets (Zed `agent_servers`, JetBrains `acp.json`, Neovim CodeCompanion)
 * work as written: each is parsed as its editor reads it, names this package's command, and that
 * command, started with the snippet's arguments (the example bridge and token file swapped for a
 * real bridge's), answers a prompt.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, test } from "node:test";
import { methods } from "@agentclientprotocol/sdk";
import {
  connectClient,
  initialize,
  startAgent,
  startTestBridge,
  type TestBridge,
  textOf,
} from "./support/acp-harness.ts";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  bin: Record<string, string>;
};

/** The fenced block after `<!-- acp-snippet: name -->`. */
function snippet(name: string): string {
  const match = new RegExp(
    `<!-- acp-snippet: ${name} -->\\n\`\`\`\\w+\\n([\\s\\S]*?)\\n\`\`\``,
  ).exec(readme);
  assert.ok(match?.[1] !== undefined, `README.md has no ${name} snippet`);
  return match[1];
}

interface Launch {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Record<string, string>;
}

/** An `agent_servers` entry, as Zed and JetBrains read it. */
function agentServer(json: string): Launch {
  const servers = (JSON.parse(json) as { agent_servers: Record<string, Partial<Launch>> })
    .agent_servers;
  const entry = servers["pi (pi-kit)"];
  assert.ok(entry?.command !== undefined, "no pi (pi-kit) agent server");
  return { command: entry.command, args: entry.args ?? [], env: entry.env ?? {} };
}

/** CodeCompanion's `commands.default`: a Lua list of strings, command first. */
function codeCompanion(lua: string): Launch {
  const list = /default\s*=\s*\{([^}]*)\}/.exec(lua)?.[1];
  assert.ok(list !== undefined, "no commands.default");
  const words = [...list.matchAll(/"([^"]*)"/g)].map((m) => m[1] as string);
  assert.ok(words.length > 0 && /\badapter = "pi_kit"/.test(lua), "pi_kit is not the chat adapter");
  return { command: words[0] as string, args: words.slice(1), env: {} };
}

let bridge: TestBridge;
before(async () => {
  bridge = await startTestBridge();
});
after(async () => {
  await bridge.dispose();
});

const snippets: Record<string, () => Launch> = {
  zed: () => agentServer(snippet("zed")),
  jetbrains: () => agentServer(snippet("jetbrains")),
  codecompanion: () => codeCompanion(snippet("codecompanion")),
};

for (const [name, launch] of Object.entries(snippets)) {
  test(`README ${name} snippet: starts pi-kit-acp, which answers a prompt on the bridge`, async () => {
    const { command, args, env } = launch();
    assert.ok(command in manifest.bin, `${command} is not this package's command`);
    const real = args.map((arg) =>
      arg === "https://pi.example.com"
        ? bridge.served.url
        : arg === "/home/me/.config/pi-kit/token"
          ? bridge.tokenFile
          : arg,
    );
    assert.notDeepEqual(real, args, "the snippet names no bridge URL or token file");
    const agent = startAgent(real, env);
    try {
      const acp = connectClient(agent);
      await initialize(acp);
      const { sessionId } = await acp.connection.agent.request(methods.agent.session.new, {
        cwd: "/",
        mcpServers: [],
      });
      const result = await acp.connection.agent.request(methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: `[[text hello ${name}]]` }],
      });
      assert.equal(result.stopReason, "end_turn");
      assert.equal(textOf(acp, "agent_message_chunk"), `hello ${name}`);
    } finally {
      assert.equal(await agent.stop(), 0);
    }
  });
}
