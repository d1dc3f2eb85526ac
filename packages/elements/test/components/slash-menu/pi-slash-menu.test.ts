import { expect, fixture, html, oneEvent, waitUntil } from "@open-wc/testing";
import type { PiClient } from "@pi-kit/client";
import type { SlashCommand } from "@pi-kit/protocol";
import { sendKeys } from "@web/test-runner-commands";
import "../../../src/define.ts";
import { matchCommands } from "../../../src/components/slash-menu/match-commands.ts";
import type { PiSlashMenu, PiSlashSelectEvent } from "../../../src/index.ts";
import { connect, type FakePi, sent } from "../../support/ui-helpers.ts";

const commands: SlashCommand[] = [
  { name: "compact", description: "Compact the context", source: "builtin" },
  { name: "ui", description: "Open a test dialog", source: "extension" },
  { name: "skill:review", description: "Review code", source: "skill" },
  { name: "recompile", source: "prompt" },
];
const root = (el: PiSlashMenu): ShadowRoot => el.shadowRoot as ShadowRoot;
const names = (el: PiSlashMenu): string[] =>
  [...root(el).querySelectorAll('[part="name"]')].map((n) => n.textContent ?? "");
const live = (el: PiSlashMenu): string =>
  root(el).querySelector('[role="status"]')?.textContent ?? "";

describe("<pi-slash-menu>", () => {
  let pi: FakePi;
  let client: PiClient;

  beforeEach(async () => {
    ({ pi, client } = await connect({ get_commands: { commands } }));
  });

  afterEach(async () => {
    await client.close();
  });

  async function attached(): Promise<{
    el: PiSlashMenu;
    input: HTMLTextAreaElement;
    sentByHost: string[];
  }> {
    const wrapper = await fixture<HTMLElement>(html`<div>
      <textarea aria-label="Message"></textarea>
      <pi-slash-menu></pi-slash-menu>
    </div>`);
    const input = wrapper.querySelector("textarea") as HTMLTextAreaElement;
    const el = wrapper.querySelector("pi-slash-menu") as PiSlashMenu;
    const sentByHost: string[] = [];
    // The host's own handler, like a composer's Enter-to-send.
    input.addEventListener("keydown", (e) => {
      if (e.key === "Enter") sentByHost.push(input.value);
    });
    el.client = client;
    el.input = input;
    await el.updateComplete;
    input.focus();
    return { el, input, sentByHost };
  }

  it("ranks prefix matches before others", () => {
    expect(matchCommands(commands, "com").map((c) => c.name)).to.deep.equal([
      "compact",
      "recompile",
    ]);
    expect(matchCommands(commands, "review").map((c) => c.name)).to.deep.equal(["skill:review"]);
    expect(matchCommands(commands, "")).to.have.length(4);
    // A name typed out in full comes first, whatever pi's order.
    const similar: SlashCommand[] = [
      { name: "uix", source: "prompt" },
      { name: "ui", source: "extension" },
    ];
    expect(matchCommands(similar, "ui").map((c) => c.name)).to.deep.equal(["ui", "uix"]);
  });

  it("leaves Enter on a fully typed command to the text field, which sends it", async () => {
    const { el, sentByHost } = await attached();
    await sendKeys({ type: "/compact" });
    await waitUntil(() => names(el).length > 0, "menu did not open");
    await sendKeys({ press: "Enter" });
    expect(sentByHost).to.deep.equal(["/compact"]);
    expect(el.open).to.equal(false);
  });

  it("opens on /, loads the commands once, and completes with the keyboard", async () => {
    const { el, input, sentByHost } = await attached();
    await sendKeys({ type: "/c" });
    await waitUntil(() => names(el).length > 0, "menu did not open");
    expect(el.open).to.equal(true);
    expect(names(el)).to.deep.equal(["/compact", "/recompile"]);
    expect(live(el)).to.contain("2 commands").and.contain("/compact");
    await expect(el).to.be.accessible();
    await sendKeys({ press: "ArrowDown" });
    await el.updateComplete;
    expect(live(el)).to.contain("/recompile").and.contain("2 of 2");
    const chosen = oneEvent(el, "pi-slash-select") as Promise<PiSlashSelectEvent>;
    await sendKeys({ press: "Enter" });
    expect((await chosen).command.name).to.equal("recompile");
    expect(input.value).to.equal("/recompile ");
    expect(sentByHost).to.deep.equal([]);
    await el.updateComplete;
    expect(el.open).to.equal(false);
    expect(sent(pi, "get_commands")).to.have.length(1);
    await sendKeys({ press: "Enter" });
    expect(sentByHost).to.deep.equal(["/recompile "]);
  });

  it("hides on Escape until the /word is gone", async () => {
    const { el, input } = await attached();
    await sendKeys({ type: "/u" });
    await waitUntil(() => names(el).length === 1);
    await sendKeys({ press: "Escape" });
    await el.updateComplete;
    expect(el.open).to.equal(false);
    await sendKeys({ type: "i" });
    await el.updateComplete;
    expect(el.open).to.equal(false);
    input.select();
    await sendKeys({ press: "Backspace" });
    await sendKeys({ type: "/" });
    await el.updateComplete;
    expect(el.open).to.equal(true);
  });

  it("completes on Tab and says when nothing matches", async () => {
    const { el, input } = await attached();
    await sendKeys({ type: "/zzz" });
    await waitUntil(
      () => root(el).querySelector('[part="empty"]')?.textContent === "No matching commands",
    );
    expect(live(el)).to.equal("No matching commands");
    for (let i = 0; i < 3; i++) await sendKeys({ press: "Backspace" });
    await sendKeys({ type: "sk" });
    await waitUntil(() => names(el).length === 1);
    await sendKeys({ press: "Tab" });
    expect(input.value).to.equal("/skill:review ");
  });

  it("can be driven by a host through query and handleKey", async () => {
    const el = await fixture<PiSlashMenu>(
      html`<pi-slash-menu lang="zh-CN" .commands=${commands} query="co"></pi-slash-menu>`,
    );
    expect(names(el)).to.deep.equal(["/compact", "/recompile", "/skill:review"]);
    expect(root(el).querySelector('[part="source"]')?.textContent).to.equal("内置");
    expect(live(el)).to.contain("3 个命令");
    const chosen = oneEvent(el, "pi-slash-select") as Promise<PiSlashSelectEvent>;
    const down = new KeyboardEvent("keydown", { key: "ArrowDown", cancelable: true });
    expect(el.handleKey(down)).to.equal(true);
    expect(down.defaultPrevented).to.equal(true);
    expect(el.handleKey(new KeyboardEvent("keydown", { key: "a" }))).to.equal(false);
    expect(el.handleKey(new KeyboardEvent("keydown", { key: "Enter", cancelable: true }))).to.equal(
      true,
    );
    expect((await chosen).command.name).to.equal("recompile");
    expect(el.query).to.equal(undefined);
  });
});
