/**
 * The strings of a composer's uploads, in English and Simplified Chinese: a table of their own,
 * loaded with the uploads (a page where nobody attaches a file never loads them). A chat's
 * `strings` may override any of them, as it does the built-in ones.
 */

/** Every string the upload chips show; `{name}` placeholders are filled by `format`. */
export interface PiUploadStrings {
  /** Files that are not images, refused by a composer without `uploads`. */
  filesRefused: string;
  /** The list's label. */
  uploadsLabel: string;
  /** The progress bar's label. */
  uploadProgress: string;
  /** Bytes so far of the size, while uploading. */
  uploadReceived: string;
  /** A chip whose file is stored and will be named in the message. */
  uploadReady: string;
  /** Announced when a file is stored. */
  uploadDone: string;
  /** Announced when a file could not be stored. */
  uploadFailedNamed: string;
  uploadRetry: string;
  uploadRemove: string;
  /** Why sending waits. */
  uploadWaiting: string;
  /** The limits, in the person's words (from the bridge's typed error codes). */
  uploadTooLarge: string;
  uploadQuotaExceeded: string;
  uploadTooMany: string;
  uploadNotController: string;
  uploadsOff: string;
}

/** English. */
export const uploadEn: PiUploadStrings = {
  filesRefused: "Only images can be attached here: {names} not attached",
  uploadsLabel: "Files to send",
  uploadProgress: "Uploading {name}",
  uploadReceived: "{received} of {size}",
  uploadReady: "Ready",
  uploadDone: "{name} uploaded",
  uploadFailedNamed: "{name} was not uploaded: {reason}",
  uploadRetry: "Retry {name}",
  uploadRemove: "Remove {name}",
  uploadWaiting: "Waiting for uploads…",
  uploadTooLarge: "Larger than the {limit} limit per file",
  uploadQuotaExceeded: "This session's uploads are full ({limit} in all)",
  uploadTooMany: "At most {count} files per message",
  uploadNotController: "Only the person in control can upload files",
  uploadsOff: "This session takes no uploads",
};

/** Simplified Chinese. */
export const uploadZhCN: PiUploadStrings = {
  filesRefused: "这里只能附加图片：{names} 未附加",
  uploadsLabel: "待发送的文件",
  uploadProgress: "正在上传 {name}",
  uploadReceived: "{received} / {size}",
  uploadReady: "就绪",
  uploadDone: "{name} 已上传",
  uploadFailedNamed: "{name} 未能上传：{reason}",
  uploadRetry: "重试 {name}",
  uploadRemove: "移除 {name}",
  uploadWaiting: "正在等待上传完成…",
  uploadTooLarge: "超过单个文件 {limit} 的上限",
  uploadQuotaExceeded: "本会话的上传空间已满（共 {limit}）",
  uploadTooMany: "每条消息最多 {count} 个文件",
  uploadNotController: "只有控制会话的人可以上传文件",
  uploadsOff: "此会话不接受上传",
};

/** The table of language `lang` (English for any it does not have). */
export function uploadStringsFor(lang: string): PiUploadStrings {
  return lang.toLowerCase().startsWith("zh") ? uploadZhCN : uploadEn;
}
