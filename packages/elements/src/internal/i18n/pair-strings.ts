/**
 * The strings of `<pi-pair>`, in English and Simplified Chinese: a table of their own, loaded
 * only with that element.
 */

/** Every string `<pi-pair>` shows; `{name}` placeholders are filled by `format`. */
export interface PiPairStrings {
  pairTitle: string;
  pairHint: string;
  pairQrLabel: string;
  pairCodeLabel: string;
  pairExpiresIn: string;
  pairExpired: string;
  pairNewCode: string;
  pairCopyLink: string;
  pairLinkCopied: string;
  pairMinting: string;
  pairFailed: string;
  pairReadOnly: string;
}

/** English. */
export const pairEn: PiPairStrings = {
  pairTitle: "Continue on another device",
  pairHint:
    "Scan the code with your phone's camera, or open this page there and type the code. It works once, for a minute.",
  pairQrLabel: "QR code of the pairing link",
  pairCodeLabel: "Pairing code",
  pairExpiresIn: "Expires in {seconds} s",
  pairExpired: "This code has expired.",
  pairNewCode: "New code",
  pairCopyLink: "Copy link",
  pairLinkCopied: "Link copied",
  pairMinting: "Making a pairing code…",
  pairFailed: "Could not make a pairing code: {message}",
  pairReadOnly: "The other device will only watch, as this one does.",
};

/** Simplified Chinese. */
export const pairZhCN: PiPairStrings = {
  pairTitle: "在另一台设备上继续",
  pairHint: "用手机相机扫描二维码，或在手机上打开此页面并输入配对码。仅可使用一次，一分钟内有效。",
  pairQrLabel: "配对链接的二维码",
  pairCodeLabel: "配对码",
  pairExpiresIn: "{seconds} 秒后过期",
  pairExpired: "此配对码已过期。",
  pairNewCode: "新配对码",
  pairCopyLink: "复制链接",
  pairLinkCopied: "链接已复制",
  pairMinting: "正在生成配对码…",
  pairFailed: "无法生成配对码：{message}",
  pairReadOnly: "另一台设备将只能观看，与此设备相同。",
};

/** The table for a language tag by its primary subtag, else English. */
export function pairStringsFor(lang: string): PiPairStrings {
  return lang.toLowerCase().startsWith("zh") ? pairZhCN : pairEn;
}
