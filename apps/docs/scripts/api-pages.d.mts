/** The packages whose API the site shows, with one line on each. */
export declare const API_PACKAGES: Readonly<Record<string, string>>;
/** Regenerates every API page. */
export declare function generateApiPages(): void;
