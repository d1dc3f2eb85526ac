/** The packages whose API the site shows, with one line on each. */
export declare const API_PACKAGES: Readonly<Record<string, string>>;
/** Regenerates every API page. */
export declare function generateApiPages(): void;
/** docs/bridge-protocol.md as the site's page (front matter, links into the repository resolved). */
export declare function protocolPage(): string;
