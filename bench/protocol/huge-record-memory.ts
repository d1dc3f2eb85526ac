/**
 * Child process of the framing benchmark: decodes one huge record fed in 64 KiB chunks and prints
 * the peak resident memory above the baseline, in bytes. The input chunk is reused, so the input
 * itself costs nothing and everything measured is the decoder's.
 */
import { JsonlDecoder } from "@pi-kit/protocol";

const size = Number(process.argv[2]);
const CHUNK = 64 * 1024;
const encoder = new TextEncoder();
const head = encoder.encode('{"d":"');
const tail = encoder.encode('"}\n');
const body = encoder.encode("x".repeat(CHUNK));

const baseline = process.memoryUsage().rss;
const decoder = new JsonlDecoder({ maxRecordBytes: 2 * size });
let length = 0;
decoder.push(head);
for (let sent = head.length; sent < size - tail.length; sent += CHUNK) {
  length += decoder.push(body.subarray(0, Math.min(CHUNK, size - tail.length - sent))).length;
}
for (const record of decoder.push(tail)) length += record.length;
const peak = process.resourceUsage().maxRSS * 1024 - baseline;
if (length < size - 8) throw new Error(`decoded ${length} characters, expected ${size}`);
console.log(peak);
