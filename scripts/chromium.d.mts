/** Flags for headless Chromium as root on a machine without GPU or outside network. */
export declare const chromiumArgs: readonly string[];
/** The Chromium binary: `CHROME_PATH`, else the usual system paths; undefined when none exists. */
export declare function findChromium(): string | undefined;
/** The Chromium binary, or an error that says how to get one. */
export declare function chromiumPath(): string;
