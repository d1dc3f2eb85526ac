/** One element declaration of custom-elements.json, with the path of its module. */
export interface ManifestElement {
  readonly tagName: string;
  readonly name: string;
  readonly modulePath: string;
  readonly [key: string]: unknown;
}
/** Where the generated element pages go. */
export declare const elementPagesDir: string;
/** The live example at the top of each element's page. */
export declare const EXAMPLE_OF: Readonly<Record<string, string>>;
/** Every element declaration of the manifest. */
export declare function manifestElements(): ManifestElement[];
/** Regenerates every element page. */
export declare function generateElementPages(): void;
