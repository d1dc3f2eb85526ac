/** Live examples of `<pi-chat>`: recorded conversations played into it. */
import "@pi-kit/elements/define";
import { createReplayTransport, PiClient } from "@pi-kit/client";
import type { TranscriptEntry } from "@pi-kit/protocol";
import { TEXT } from "./recordings.ts";
import { followSiteTheme } from "./site-theme.ts";

/** One live example: draws itself into `stage`. */
export interface LiveExample {
  mount(stage: HTMLElement): Promise<void>;
}

/** A `<pi-chat>` playing `entries` (as fast as possible unless `speed` is given), left open. */
function chatPlaying(
  entries: readonly TranscriptEntry[],
  speed = Number.POSITIVE_INFINITY,
): LiveExample {
  return {
    async mount(stage) {
      const chat = document.createElement("pi-chat");
      chat.style.height = "420px";
      followSiteTheme(chat);
      stage.append(chat);
      const transport = createReplayTransport(entries, {
        speed,
        waitForWrites: false,
        keepOpen: true,
      });
      chat.client = new PiClient(transport, { capabilities: "1" });
      await chat.updateComplete;
    },
  };
}

/** An answer streamed at the speed pi sent it. */
export const chatStreaming = chatPlaying(TEXT, 0.5);
