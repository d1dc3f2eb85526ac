/** Checks on the errors a client call rejects with, shared by the unit and live suites. */
import assert from "node:assert/strict";
import { PiClientError } from "../../src/index.ts";

/** An `assert.rejects` check: `call` failed because the transport closed, and says so by name. */
export function closedDuring(call: string): (error: unknown) => boolean {
  return (error) => {
    assert.ok(error instanceof PiClientError, String(error));
    assert.equal(error.code, "transport_closed");
    assert.equal(error.command, call);
    assert.match(error.message, new RegExp(`^${call} failed: pi transport closed`));
    return true;
  };
}
