/** URLs kept on links; everything else (javascript:, data:, vbscript:, relative) is dropped. */
export const SAFE_URL = /^(?:https?:|mailto:)/i;
