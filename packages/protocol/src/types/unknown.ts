/**
 * Records this package does not recognise, passed through rather than dropped.
 */

/** A JSON object with a string `type` that is not a known event, response or UI request. */
export interface UnknownRecord {
  readonly type: string;
  readonly [key: string]: unknown;
}
