import { expect, fixture, html, waitUntil } from "@open-wc/testing";
import type { PiClient } from "@pi-kit/client";
import type { Model } from "@pi-kit/protocol";
import { sendKeys } from "@web/test-runner-commands";
import "../../../src/define.ts";
import { levelsForModel } from "../../../src/components/thinking-picker/pi-thinking-picker.ts";
import type { PiThinkingPicker } from "../../../src/index.ts";
import { connect, type FakePi, model, STATE, sent } from "../../support/ui-helpers.ts";

const select = (el: PiThinkingPicker): HTMLSelectElement =>
  (el.shadowRoot as ShadowRoot).querySelector("select") as HTMLSelectElement;
const values = (el: PiThinkingPicker): string[] => [...select(el).options].map((o) => o.value);

describe("<pi-thinking-picker>", () => {
  let pi: FakePi;
  let client: PiClient;

  afterEach(async () => {
    await client?.close();
  });

  async function mount(
    current: Model,
    version: "0.73" | "1",
    levels?: string[],
  ): Promise<PiThinkingPicker> {
    ({ pi, client } = await connect(
      {
        get_state: { ...STATE, model: current, thinkingLevel: "low" },
        ...(levels ? { get_available_thinking_levels: { levels } } : {}),
      },
      version,
    ));
    const el = await fixture<PiThinkingPicker>(
      html`<pi-thinking-picker .client=${client}></pi-thinking-picker>`,
    );
    el.requestUpdate();
    await el.updateComplete;
    return el;
  }

  it("derives levels from the model on 0.73 (no get_available_thinking_levels)", async () => {
    const el = await mount(model("fake", "fake-r", true), "0.73");
    expect(values(el)).to.deep.equal(["off", "minimal", "low", "medium", "high"]);
    expect(select(el).value).to.equal("low");
    expect(select(el).disabled).to.equal(false);
    expect(sent(pi, "get_available_thinking_levels")).to.have.length(0);
    await expect(el).to.be.accessible();
  });

  it("is disabled for a model that cannot think, showing the level pi will use: off", async () => {
    const el = await mount(model("fake", "fake-1"), "0.73");
    // pi's state says "low", but a model that cannot think runs without.
    expect(values(el)).to.deep.equal(["off"]);
    expect(select(el).value).to.equal("off");
    expect(el.value).to.equal("off");
    expect(select(el).disabled).to.equal(true);
  });

  it("asks pi 1.x for the levels of the model", async () => {
    const el = await mount(model("fake", "fake-r", true), "1", ["off", "low", "high", "xhigh"]);
    await waitUntil(() => values(el).length === 4, "levels were not fetched");
    expect(values(el)).to.deep.equal(["off", "low", "high", "xhigh"]);
    expect(select(el).options[3]?.textContent).to.equal("Extra high");
  });

  it("sets the level from the keyboard", async () => {
    const el = await mount(model("fake", "fake-r", true), "0.73");
    select(el).focus();
    await sendKeys({ press: "ArrowDown" });
    await waitUntil(() => sent(pi, "set_thinking_level").length === 1);
    expect(sent(pi, "set_thinking_level")[0]).to.deep.include({ level: "medium" });
  });

  it("honours the model's level map", () => {
    expect(
      levelsForModel(model("p", "m", true, { thinkingLevelMap: { minimal: null, xhigh: "max" } })),
    ).to.deep.equal(["off", "low", "medium", "high", "xhigh"]);
  });

  it("speaks Chinese under lang=zh-CN", async () => {
    const el = await fixture<PiThinkingPicker>(
      html`<pi-thinking-picker lang="zh-CN" .levels=${["off", "high"]}></pi-thinking-picker>`,
    );
    expect([...select(el).options].map((o) => o.textContent)).to.deep.equal(["关闭", "高"]);
    await expect(el).to.be.accessible();
    client = undefined as unknown as PiClient;
  });
});
