/**
 * The strings of `<pi-mention-menu>`, in English and Simplified Chinese: a table of their own,
 * loaded with the menu only (a page where nobody types `@` never loads them).
 */

/** Every string the `@` file menu shows; `{name}` placeholders are filled by `format`. */
export interface PiMentionStrings {
  mentionLabel: string;
  mentionCount: string;
  mentionEmpty: string;
  mentionFailed: string;
  mentionsLabel: string;
  mentionRemove: string;
  mentionDirectory: string;
}

/** English. */
export const mentionEn: PiMentionStrings = {
  mentionLabel: "Workspace files",
  mentionCount: "{count} files",
  mentionEmpty: "No matching files",
  mentionFailed: "Could not search the files: {message}",
  mentionsLabel: "Mentioned files",
  mentionRemove: "Remove {path}",
  mentionDirectory: "folder",
};

/** Simplified Chinese. */
export const mentionZhCN: PiMentionStrings = {
  mentionLabel: "工作区文件",
  mentionCount: "{count} 个文件",
  mentionEmpty: "没有匹配的文件",
  mentionFailed: "无法搜索文件：{message}",
  mentionsLabel: "已提及的文件",
  mentionRemove: "移除 {path}",
  mentionDirectory: "文件夹",
};

/** The table of language `lang` (English for any it does not have). */
export function mentionStringsFor(lang: string): PiMentionStrings {
  return lang.toLowerCase().startsWith("zh") ? mentionZhCN : mentionEn;
}
