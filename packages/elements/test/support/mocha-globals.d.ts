// The browser tests run under WTR's mocha, which provides these globals (no @types/mocha installed).
/** The part of mocha's suite context the tests use. */
interface MochaSuiteContext {
  timeout(ms: number): void;
}
declare function describe(name: string, body: (this: MochaSuiteContext) => void): void;
declare function it(name: string, body: () => void | Promise<void>): void;
declare function before(body: () => void | Promise<void>): void;
declare function after(body: () => void | Promise<void>): void;
declare function beforeEach(body: () => void | Promise<void>): void;
declare function afterEach(body: () => void | Promise<void>): void;
