/**
 * An ACP prompt as pi's prompt: its text (resource links as `@uri` mentions, embedded text
 * resources inlined in fences) and its images.
 */
import type { ContentBlock } from "@agentclientprotocol/sdk";
import type { ImageContent } from "@pi-kit/protocol";

/** A prompt as pi takes it. */
export interface PiPrompt {
  readonly text: string;
  readonly images: ImageContent[];
}

/** The text and images of `blocks` (audio and binary resources have no place in a pi prompt). */
export function piPrompt(blocks: readonly ContentBlock[]): PiPrompt {
  const parts: string[] = [];
  const images: ImageContent[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case "text":
        parts.push(block.text);
        break;
      case "image":
        images.push({ type: "image", data: block.data, mimeType: block.mimeType });
        break;
      case "resource_link":
        parts.push(`@${block.uri}`);
        break;
      case "resource":
        if ("text" in block.resource) {
          parts.push(`${block.resource.uri}:\n\`\`\`\n${block.resource.text}\n\`\`\``);
        } else parts.push(`@${block.resource.uri}`);
        break;
      default:
        break;
    }
  }
  return { text: parts.join("\n\n"), images };
}
