import { expect, fixture, html, waitUntil } from "@open-wc/testing";
import type { PiClient } from "@pi-kit/client";
import { sendKeys } from "@web/test-runner-commands";
import "../../../src/define.ts";
import type { PiModelChangeEvent, PiModelPicker } from "../../../src/index.ts";
import {
  connect,
  type FakePi,
  model,
  STATE,
  sent,
  type Written,
} from "../../support/ui-helpers.ts";

const fake1 = model("fake", "fake-1");
const fakeR = model("fake", "fake-r", true);
const other = model("other", "big");
const select = (el: PiModelPicker): HTMLSelectElement =>
  (el.shadowRoot as ShadowRoot).querySelector("select") as HTMLSelectElement;

describe("<pi-model-picker>", () => {
  let pi: FakePi;
  let client: PiClient;
  let current = fake1;

  beforeEach(async () => {
    current = fake1;
    ({ pi, client } = await connect({
      get_state: () => ({ ...STATE, model: current }),
      get_available_models: { models: [fake1, fakeR, other] },
      set_model: (c: Written) => {
        current = [fake1, fakeR, other].find((m) => m.id === c.modelId) ?? fake1;
        return current;
      },
    }));
  });

  afterEach(async () => {
    await client.close();
  });

  async function mount(): Promise<PiModelPicker> {
    const el = await fixture<PiModelPicker>(
      html`<pi-model-picker .client=${client}></pi-model-picker>`,
    );
    await waitUntil(() => select(el).options.length === 3, "models did not load");
    return el;
  }

  it("lists the models by provider with the current one selected", async () => {
    const el = await mount();
    const groups = [...select(el).querySelectorAll("optgroup")].map((g) => g.label);
    expect(groups).to.deep.equal(["fake", "other"]);
    expect(select(el).value).to.equal("fake/fake-1");
    expect(el.value?.id).to.equal("fake-1");
    await expect(el).to.be.accessible();
  });

  it("switches model from the keyboard and reads the state back", async () => {
    const el = await mount();
    select(el).focus();
    await sendKeys({ press: "ArrowDown" });
    await waitUntil(() => sent(pi, "set_model").length === 1);
    expect(sent(pi, "set_model")[0]).to.deep.include({ provider: "fake", modelId: "fake-r" });
    await waitUntil(() => {
      el.requestUpdate();
      return el.value?.id === "fake-r" && !el.busy;
    });
    expect(sent(pi, "get_state").length).to.be.greaterThan(1);
  });

  it("leaves the switch to the page when pi-model-change is cancelled", async () => {
    const el = await mount();
    let seen: string | undefined;
    el.addEventListener("pi-model-change", (e: PiModelChangeEvent) => {
      seen = e.model.id;
      e.preventDefault();
    });
    await el.choose(other);
    expect(seen).to.equal("big");
    expect(sent(pi, "set_model")).to.have.length(0);
  });

  it("finds the client through <pi-provider>", async () => {
    const wrapper = await fixture<HTMLElement>(
      html`<pi-provider .client=${client}><pi-model-picker hide-label></pi-model-picker></pi-provider>`,
    );
    const el = wrapper.querySelector("pi-model-picker") as PiModelPicker;
    await waitUntil(() => select(el).options.length === 3);
    expect((el.shadowRoot as ShadowRoot).querySelector("label")?.className).to.equal("sr-only");
    await expect(el).to.be.accessible();
  });

  it("works from a models property alone", async () => {
    const el = await fixture<PiModelPicker>(
      html`<pi-model-picker lang="zh-CN" .models=${[fake1, other]}></pi-model-picker>`,
    );
    expect(select(el).options[0]?.textContent).to.equal("无模型");
    expect((el.shadowRoot as ShadowRoot).querySelector("label")?.textContent).to.equal("模型");
    await expect(el).to.be.accessible();
  });

  it("has its final width before it connects: no jump when the models arrive", async () => {
    const long = model("other", "long", false, { name: "A model with a rather long display name" });
    const { pi: slow, client: later } = await connect({
      get_state: () => ({ ...STATE, model: long }),
      get_available_models: { models: [fake1, long] },
    });
    const el = await fixture<PiModelPicker>(html`<pi-model-picker hide-label></pi-model-picker>`);
    const before = el.getBoundingClientRect().width;
    el.client = later;
    await el.updateComplete;
    const loading = el.getBoundingClientRect().width;
    await waitUntil(() => select(el).options.length === 2 && !el.busy, "models did not load");
    await later.getState();
    el.requestUpdate();
    await el.updateComplete;
    expect(select(el).value).to.equal("other/long");
    expect(sent(slow, "get_available_models")).to.have.length(1);
    expect([loading, el.getBoundingClientRect().width], "widths (px)").to.deep.equal([
      before,
      before,
    ]);
    await later.close();
  });
});
