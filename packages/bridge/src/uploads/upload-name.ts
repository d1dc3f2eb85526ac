/**
 * The safe name an upload is stored under: the last part of what the person's browser sent, with
 * nothing that could lead elsewhere, hide the file or trouble a terminal or another system.
 */

/** The longest stored name, in UTF-8 bytes (file systems allow 255). */
export const MAX_UPLOAD_NAME_BYTES = 120;
/** An extension longer than this is part of the stem when the name is cut. */
const MAX_EXTENSION = 16;
/** The name of a file whose name sanitises to nothing. */
const FALLBACK = "file";
/** C0 and C1 controls, DEL, and the bidirectional overrides that disguise an extension. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** Characters Windows refuses in names. */
const WINDOWS_RESERVED = /[<>:"|?*]/g;
/** Names Windows keeps for devices, whatever their extension. */
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$/i;

/**
 * The stored name of an upload the person named `raw`: its last path segment (after `/` or `\`),
 * without control characters, with Windows' reserved ones as `_`, trimmed, without leading dots
 * (never hidden, never `..`) or trailing dots, cut to {@link MAX_UPLOAD_NAME_BYTES} keeping the
 * extension; `file` when nothing is left.
 */
export function safeUploadName(raw: string): string {
  const base = raw.normalize("NFC").split(/[/\\]/).at(-1) ?? "";
  let name = base
    .replace(UNSAFE, "")
    .replace(WINDOWS_RESERVED, "_")
    .trim()
    .replace(/^[.\s]+/, "")
    .replace(/[.\s]+$/, "");
  if (WINDOWS_DEVICE.test(name)) name = `_${name}`;
  name = cut(name);
  return name === "" ? FALLBACK : name;
}

/** `name` cut to the byte cap, keeping a short extension whole. */
function cut(name: string): string {
  if (bytes(name) <= MAX_UPLOAD_NAME_BYTES) return name;
  const dot = name.lastIndexOf(".");
  const extension = dot > 0 && name.length - dot <= MAX_EXTENSION ? name.slice(dot) : "";
  const room = MAX_UPLOAD_NAME_BYTES - bytes(extension);
  let stem = "";
  for (const char of name.slice(0, name.length - extension.length)) {
    if (bytes(stem + char) > room) break;
    stem += char;
  }
  return `${stem.replace(/[.\s]+$/, "")}${extension}`;
}

const encoder = new TextEncoder();
const bytes = (text: string): number => encoder.encode(text).length;
