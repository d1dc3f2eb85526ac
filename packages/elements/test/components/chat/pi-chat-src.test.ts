import { expect, fixture, html, oneEvent } from "@open-wc/testing";
import "../../../src/define.ts";
import { type PiChat, PiTokenRequestEvent } from "../../../src/index.ts";
import { type SrcHost, tokenFor } from "../../../src/internal/controllers/src-controller.ts";

// Connecting for real (the one-file bundle, a bridge, pi) is the embed end-to-end test's job; here:
// where the token comes from, and that a chat with `src` asks for it and lets go when removed.

const host = (props: Partial<SrcHost>): SrcHost =>
  Object.assign(document.createElement("div"), { src: "/sessions/x/ws", ...props }) as SrcHost;

describe("<pi-chat src> token", () => {
  afterEach(() => history.replaceState(null, "", location.pathname + location.search));

  it("is the token attribute by default, and none without one", async () => {
    expect(await tokenFor(host({ token: "abc" }))).to.equal("abc");
    expect(await tokenFor(host({}))).to.equal(undefined);
    expect(await tokenFor(host({ tokenFrom: "attribute", token: "" }))).to.equal(undefined);
  });

  it("comes from the page URL's #token= with token-from=fragment", async () => {
    history.replaceState(null, "", "#view=1&token=s%20ecret");
    expect(await tokenFor(host({ tokenFrom: "fragment", token: "ignored" }))).to.equal("s ecret");
    history.replaceState(null, "", "#view=1");
    expect(await tokenFor(host({ tokenFrom: "fragment" }))).to.equal(undefined);
  });

  it("is asked for with a bubbling pi-token-request with token-from=event, again for each reconnect", async () => {
    const el = host({ tokenFrom: "event" });
    document.body.append(el);
    let asked = 0;
    const answer = (e: PiTokenRequestEvent) => e.respondWith(Promise.resolve(`ticket-${++asked}`));
    document.addEventListener("pi-token-request", answer);
    let token: Awaited<ReturnType<typeof tokenFor>>;
    try {
      token = await tokenFor(el);
      if (typeof token !== "function") throw new Error(`a token function, not ${token}`);
      // The first connection gets the first answer; a reconnect asks for a fresh one.
      expect(await token()).to.equal("ticket-1");
      expect(await token()).to.equal("ticket-2");
    } finally {
      document.removeEventListener("pi-token-request", answer);
    }
    // A page that stops answering: the last token is kept.
    expect(await token()).to.equal("ticket-2");
    el.remove();
    // Unanswered: wait (null) for the page to set `token`, which is used as is.
    expect(await tokenFor(host({ tokenFrom: "event" }))).to.equal(null);
    expect(await tokenFor(host({ tokenFrom: "event", token: "later" }))).to.equal("later");
  });
});

describe("<pi-chat src>", () => {
  it("asks the page for a token when connected, and sets no client while unanswered", async () => {
    const wrapper = document.createElement("div");
    document.body.append(wrapper);
    const asked = oneEvent(wrapper, "pi-token-request");
    wrapper.innerHTML = `<pi-chat src="ws://127.0.0.1:9/sessions/x/ws" token-from="event"></pi-chat>`;
    const request = await asked;
    expect(request).to.be.instanceOf(PiTokenRequestEvent);
    const chat = wrapper.querySelector("pi-chat") as PiChat;
    expect(chat.src).to.equal("ws://127.0.0.1:9/sessions/x/ws");
    expect(chat.tokenFrom).to.equal("event");
    expect(chat.client).to.equal(undefined);
    wrapper.remove();
  });

  it("without src stays unconnected and asks nothing", async () => {
    let asked = false;
    const listener = () => {
      asked = true;
    };
    document.addEventListener("pi-token-request", listener);
    const chat = await fixture<PiChat>(html`<pi-chat token-from="event"></pi-chat>`);
    await chat.updateComplete;
    document.removeEventListener("pi-token-request", listener);
    expect(asked).to.equal(false);
    expect(chat.client).to.equal(undefined);
  });
});
